#!/usr/bin/env bash
# usage: bench/diff-rates.sh [--runs N]   (default 3)
#
# How fast `tracebeat diff` compares two builds, and in how much memory:
# ProGuard 6 obfuscating commons-lang3 (the program of
# bench/runtime-overhead.sh) instrumented twice, as two builds whose ids
# differ (the default rules, and --trace-all), each recorded N times with
# the default budget; then one `tracebeat diff` of the two folders (on
# this machine's cores). It reports the calls each recording kept, the
# wall time, and the peak RSS against the largest recording's size (the
# bounds: 3 s and twice the largest input).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs=3
while (($#)); do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    *) echo "usage: bench/diff-rates.sh [--runs N]" >&2; exit 2 ;;
  esac
done
[[ -x /usr/bin/time ]] || { echo "diff-rates: /usr/bin/time missing (Debian: apt-get install -y time)" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
(cd "$ROOT" && go build -o "$WORK/" ./cmd/tracebeat ./internal/tools/jdklib)
./jdklib -o jdk-lib.jar
# shellcheck source=bench/proguard.sh
source "$ROOT/bench/proguard.sh"
proguard_setup diff-rates
./tracebeat runtime -o runtime.jar 2>/dev/null
./tracebeat instrument -q -o base "$PROGUARD"
./tracebeat instrument -q --trace-all -o new "$PROGUARD"
for side in base new; do
  mkdir -p "runs-$side"
  for ((i = 1; i <= runs; i++)); do
    rm -f out.jar
    java -Dtracebeat.trace="runs-$side/run$i.trace" -cp "runtime.jar:$side/proguard.jar" proguard.ProGuard @proguard.pro >/dev/null
  done
done
calls() { ./tracebeat decode --map "$1/methodMapping.txt" --top 1 --max-stack 1 "$2" 2>/dev/null | head -1 | grep -o '[0-9]* calls$' | cut -d' ' -f1; }
largest=0
for side in base new; do
  for f in runs-$side/*.trace; do
    size=$(stat -c %s "$f")
    ((size > largest)) && largest=$size
    echo "diff-rates: $f: $((size / 1048576)) MB, $(calls "$side" "$f") calls"
  done
done
set +e
/usr/bin/time -f '%e %M' -o time.txt ./tracebeat diff --base-map base/methodMapping.txt --map new/methodMapping.txt \
  --format json -o diff.json runs-base runs-new 2>diff.err
code=$?
set -e
((code <= 1)) || { cat diff.err >&2; echo "diff-rates: tracebeat diff failed ($code)" >&2; exit 1; }
read -r wall rss_kb < <(tail -1 time.txt) # a first line says the exit status when it is not 0
ratio=$(awk -v r="$rss_kb" -v s="$largest" 'BEGIN { printf "%.2f", r * 1024 / s }')
methods=$(grep -c '"name"' diff.json || true)
echo "diff-rates: runs=$runs methods=$methods wall_s=$wall peak_rss_mb=$((rss_kb / 1024)) largest_input_mb=$((largest / 1048576)) rss_over_largest=$ratio exit=$code"
