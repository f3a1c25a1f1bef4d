#!/usr/bin/env bash
# usage: bench/incremental.sh [--reps N] [--jar NAME.jar] [--add-method]
# Incremental runs with --cache over the lab corpus (/tmp/lab/corpus), all in
# one run of this script, medians of N (default 3), default options and 2 workers:
#   full       no cache (the reference)
#   cold       --cache with an empty cache (fills it)
#   unchanged  --cache, nothing changed
#   changed    --cache after one class of one jar changed, the outputs of
#              the last run in place as in an incremental build (default: the
#              largest jar, the worst case for a jar-level cache). The
#              class gets a nop at the start of every method
#              (bench/ChangeBody.java, ASM from libasm-java): other method
#              bodies, the maps as they were. With --add-method it gets one more
#              method instead (bench/AddMethod.java, ASM from libasm-java):
#              a change that adds a line to the method map.
#   clean      the same change with the output directory removed first:
#              every output, maps included, is written again.
# and prints each as a ratio of the full run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps=3 jar="" add_method=""
while (($#)); do
  case "$1" in
    --reps) reps="$2"; shift 2 ;;
    --jar) jar="$2"; shift 2 ;;
    --add-method) add_method=1; shift ;;
    *) echo "usage: bench/incremental.sh [--reps N] [--jar NAME.jar] [--add-method]" >&2; exit 2 ;;
  esac
done
[[ -d /tmp/lab/corpus ]] || { echo "incremental: needs the lab corpus (run ../shared/lab/setup.sh)" >&2; exit 2; }
command -v zip >/dev/null || { echo "incremental: needs zip (apt-get install zip)" >&2; exit 2; }
TB=/tmp/lab/tracebeat
(cd "$ROOT" && go build -o "$TB" ./cmd/tracebeat)
[[ -n "$jar" ]] || jar=$(basename "$(ls -SL /tmp/lab/corpus/*.jar | head -1)")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
cp /tmp/lab/corpus/*.jar "$work/in/"
cp "$work/in/$jar" "$work/orig.jar"

run() { # run [--clean] ARGS...: prints the wall seconds; --clean removes the last outputs first
  local out="$work/out"
  if [[ "$1" == --clean ]]; then
    rm -rf "$out"
    shift
  fi
  local t0 t1
  sleep "${SETTLE:-0}"
  t0=$(date +%s.%N)
  "$TB" instrument --quiet --workers 2 -o "$out" "$@" "$work"/in/*.jar
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The replacement class: the first rewritten class of the jar that no
# other jar has (a class in two inputs shares its ids with the other copy,
# and a change to it is a full run: see the README), as rewritten.
"$TB" instrument --quiet --workers 2 -o "$work/ref" "$work/in/$jar"
for other in "$work"/in/*.jar; do
  [[ "$other" == "$work/in/$jar" ]] || unzip -Z1 "$other"
done | sort -u >"$work/elsewhere"
class=$(unzip -Z1 "$work/in/$jar" | grep '\.class$' | grep -vxF -f "$work/elsewhere" | while read -r c; do
  if ! cmp -s <(unzip -p "$work/in/$jar" "$c") <(unzip -p "$work/ref/$jar" "$c"); then echo "$c"; break; fi
done || true) # the listing ends on a broken pipe
mkdir -p "$work/changed"
# The change: a nop at the start of every method of the class (bodies
# changed), or with --add-method one method more. (The instrumented class
# of the reference run, used before, is now recognised as instrumented
# and left alone: no work for the run to do.)
asm=/usr/share/java/asm.jar
[[ -f "$asm" ]] || { echo "incremental: needs ASM (apt-get install libasm-java)" >&2; exit 2; }
tool=ChangeBody
[[ -n "$add_method" ]] && tool=AddMethod
javac -d "$work/tool" -cp "$asm" "$ROOT/bench/$tool.java"
mkdir -p "$work/changed/$(dirname "$class")"
unzip -p "$work/in/$jar" "$class" >"$work/orig.class"
java -cp "$work/tool:$asm" "$tool" "$work/orig.class" "$work/changed/$class"
change() { cp "$work/orig.jar" "$work/in/$jar" && (cd "$work/changed" && zip -q "$work/in/$jar" "$class"); }
restore() { cp "$work/orig.jar" "$work/in/$jar"; }

# A run after the change must write what a run without the cache writes
# with the kept map as its base map.
check() {
  local kept=("$work"/cache/*/maps/*.txt)
  cp "${kept[0]}" "$work/base.txt"
  change
  "$TB" instrument --quiet --workers 2 --cache "$work/cache" -o "$work/out" "$work"/in/*.jar
  "$TB" instrument --quiet --workers 2 --base-map "$work/base.txt" -o "$work/fresh" "$work"/in/*.jar
  diff -rq "$work/fresh" "$work/out" >/dev/null || { echo "incremental: the run after the change differs from a full run" >&2; exit 1; }
  rm -rf "$work/fresh" "$work/out"
}

full=() cold=() warm=() changed=() clean=()
for ((i = 0; i < reps; i++)); do
  restore
  full+=("$(run --clean)")
  rm -rf "$work/cache"
  cold+=("$(run --clean --cache "$work/cache")")
  warm+=("$(run --cache "$work/cache")")
  change
  changed+=("$(run --cache "$work/cache")")
  restore
  run --cache "$work/cache" >/dev/null
  change
  clean+=("$(run --clean --cache "$work/cache")")
done
restore
rm -rf "$work/cache"
run --clean --cache "$work/cache" >/dev/null
check
f=$(printf '%s\n' "${full[@]}" | median)
c=$(printf '%s\n' "${cold[@]}" | median)
w=$(printf '%s\n' "${warm[@]}" | median)
ch=$(printf '%s\n' "${changed[@]}" | median)
cl=$(printf '%s\n' "${clean[@]}" | median)
echo "changed class: $jar!/$class${add_method:+ (a method added)}"
awk -v f="$f" -v c="$c" -v w="$w" -v ch="$ch" -v cl="$cl" 'BEGIN {
  printf "incremental: full_s=%.2f cold_s=%.2f unchanged_s=%.2f changed_s=%.2f clean_s=%.2f\n", f, c, w, ch, cl
  printf "incremental: cold/full=%.2f unchanged/full=%.2f changed/full=%.2f clean/full=%.2f\n", c / f, w / f, ch / f, cl / f }'
