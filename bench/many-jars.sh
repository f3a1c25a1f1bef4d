#!/usr/bin/env bash
# usage: bench/many-jars.sh [--reps N] [--count N] [--classes N] [--gradle-api]
# Memory that does not grow with the number of jars: one run over about a
# hundred real jars from Debian's Java packages (the largest by class count
# in /usr/share/java, one kotlin compiler, at least 125,000 classes; --count
# and --classes set the least number of jars and of classes), with
# Matrix's default rules, 2 workers. Debian's jars hold about 161,000
# classes: --gradle-api adds Gradle's API jar 8.11.1 from Maven Central
# (45,166 classes, cached in ~/.m2) to the jars the set is drawn from, so
# "--gradle-api --count 600 --classes 180000" is a set of 206,000. Prints the set, then per run the wall
# time, the peak anonymous memory (RssAnon: the process's own memory, not
# the pages of the files it reads) and the peak RSS, sampled every 20 ms
# from /proc, and the median. The bound: peak RssAnon <= 250 MB; the
# script exits 1 when the median is over it.
# Installs the packages the set is drawn from when missing (as root).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps=3 count=100 min_classes=125000 gradle_api=
while (($#)); do
  case "$1" in
    --reps) reps="$2"; shift 2 ;;
    --count) count="$2"; shift 2 ;;
    --classes) min_classes="$2"; shift 2 ;;
    --gradle-api) gradle_api=1; shift ;;
    *) echo "usage: bench/many-jars.sh [--reps N] [--count N] [--classes N] [--gradle-api]" >&2; exit 2 ;;
  esac
done
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
pkgs=(kotlin groovy scala libclojure-java jython javacc antlr4 libbcprov-java libguava-java
  libcommons-lang3-java gradle libasm-java ecj)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  [[ "$(id -u)" == 0 ]] || { echo "many-jars: missing ${missing[*]}" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }
fi
work="$(mktemp -d /tmp/many-jars.XXXXXX)"
trap 'rm -rf "$work"' EXIT
(cd "$ROOT" && go build -o "$work/tracebeat" ./cmd/tracebeat)

candidates=(/usr/share/java/*.jar)
if [[ -n "$gradle_api" ]]; then
  command -v mvn >/dev/null 2>&1 || { echo "many-jars: --gradle-api needs mvn (Debian: apt-get install -y maven)" >&2; exit 1; }
  mvn -B -q dependency:copy -Dartifact=dev.gradleplugins:gradle-api:8.11.1 -DoutputDirectory="$work/maven" \
    >"$work/mvn.log" 2>&1 || { cat "$work/mvn.log" >&2; exit 1; }
  candidates+=("$work/maven/gradle-api-8.11.1.jar")
fi
# The set: every jar file (not link) of /usr/share/java but the embeddable
# copy of the kotlin compiler (and gradle-api when asked), by class count,
# largest first (names break ties), until $count jars and $min_classes
# classes (or every jar there is).
for j in "${candidates[@]}"; do
  [[ -L "$j" || "$j" == *embeddable* ]] && continue
  n=$(unzip -Z1 "$j" 2>/dev/null | grep -c '\.class$' || true)
  echo "$n $j"
done | sort -k1,1nr -k2,2 >"$work/all"
awk -v want="$count" -v least="$min_classes" '{ if (n >= want && total >= least) exit; print $2; n++; total += $1 }
  END { printf "many-jars: jars=%d classes=%d\n", n, total > "/dev/stderr" }' "$work/all" >"$work/list"
mapfile -t jars <"$work/list"
du -cLsh "${jars[@]}" | tail -1 | sed 's/^/many-jars: size /'

run() {
  local out="$work/out"
  rm -rf "$out"
  local start end peak=0 hwm=0 a h
  start=$(date +%s.%N)
  "$work/tracebeat" instrument --quiet --log-level error --workers 2 -o "$out" "${jars[@]}" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if read -r a h < <(awk '/^RssAnon/{a=$2} /^VmHWM/{h=$2} END{print a+0, h+0}' "/proc/$pid/status" 2>/dev/null); then
      ((a > peak)) && peak=$a
      ((h > hwm)) && hwm=$h
    fi
    sleep 0.02
  done
  wait "$pid"
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v a="$peak" -v h="$hwm" \
    'BEGIN { printf "%.2f %.0f %.0f\n", e - s, a / 1024, h / 1024 }'
}
results=()
for ((i = 1; i <= reps; i++)); do
  r=$(run)
  read -r w a h <<<"$r"
  echo "many-jars: run $i: wall_s=$w peak_rss_anon_mb=$a peak_rss_mb=$h"
  results+=("$r")
done
median() { printf '%s\n' "${results[@]}" | awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
anon=$(median 2)
echo "many-jars: median of $reps wall_s=$(median 1) peak_rss_anon_mb=$anon peak_rss_mb=$(median 3) (bound: peak_rss_anon_mb <= 250)"
if ((anon > 250)); then
  echo "many-jars: over the bound: $anon MB of anonymous memory, 250 allowed" >&2
  exit 1
fi
