#!/usr/bin/env bash
# usage: bench/whole-run.sh [--rounds N]   (default 3)
#
# What the recorder for long runs costs and keeps, on ProGuard 6
# obfuscating commons-lang3 (about 62 million traced calls, the densest
# program we know; the program of bench/runtime-overhead.sh), each way run
# once a round, one after the other:
#   plain       the original program
#   ring        recording, the default ring mode (the newest 16 MiB)
#   stream      -Dtracebeat.mode=stream: every record, written as it runs
#               (its tokens LZ4-compressed, the default)
#   deflate     the same with -Dtracebeat.compress=deflate
#   stream-raw  the same with -Dtracebeat.compress=none
#   watch       ring mode with -Dtracebeat.slow=1h -Dtracebeat.stall=1h:
#               the watch follows every call, and no call is slow
# It checks that every run's output is the plain run's, reports each way's
# median wall time as a ratio to plain; for the last stream recording its
# bytes per record, its records lost (must be 0) and how fast decode reads
# it (text, one core); and how long `tracebeat dump` takes to have a full
# 16 MiB ring on disk (jvmruntime/testdata/dense, recursive Fibonacci
# filling its ring, dumped three times).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3
while (($#)); do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    *) echo "usage: bench/whole-run.sh [--rounds N]" >&2; exit 2 ;;
  esac
done
# shellcheck source=bench/proguard.sh
source "$ROOT/bench/proguard.sh"
proguard_check whole-run
for tool in go java javac unzip sha256sum awk; do
  command -v "$tool" >/dev/null || { echo "whole-run: $tool not found" >&2; exit 2; }
done
WORK="$(mktemp -d)"
trap 'kill "$dense_pid" 2>/dev/null || true; rm -rf "$WORK"' EXIT
dense_pid=""
cd "$WORK"
(cd "$ROOT" && go build -o "$WORK/" ./cmd/tracebeat ./internal/tools/jdklib)
./jdklib -o jdk-lib.jar
./tracebeat instrument -q -o inst "$PROGUARD"
./tracebeat runtime -o rt.jar 2>/dev/null
proguard_config

declare -A want times
run() {
  local mode="$1" props=() cp="rt.jar:inst/proguard.jar"
  case "$mode" in
    plain) cp="$PROGUARD" ;;
    ring) props=(-Dtracebeat.trace=ring.trace) ;;
    stream) props=(-Dtracebeat.trace=stream.trace -Dtracebeat.mode=stream) ;;
    deflate) props=(-Dtracebeat.trace=deflate.trace -Dtracebeat.mode=stream -Dtracebeat.compress=deflate) ;;
    stream-raw) props=(-Dtracebeat.trace=raw.trace -Dtracebeat.mode=stream -Dtracebeat.compress=none) ;;
    watch) props=(-Dtracebeat.trace=watch.trace -Dtracebeat.slow=1h -Dtracebeat.stall=1h) ;;
  esac
  rm -f out.jar out-mapping.txt
  local t0 t1
  t0=$(date +%s%N)
  java "${props[@]}" -cp "$cp" proguard.ProGuard @proguard.pro >"$mode.log" 2>&1 ||
    { cat "$mode.log" >&2; echo "whole-run: proguard failed ($mode)" >&2; exit 1; }
  t1=$(date +%s%N)
  local digest
  digest=$({ unzip -Z1 out.jar; unzip -p out.jar; cat out-mapping.txt; } | sha256sum | cut -c1-16)
  if [[ -z "${want[p]:-}" ]]; then
    want[p]="$digest"
  elif [[ "$digest" != "${want[p]}" ]]; then
    echo "whole-run: $mode's output differs from plain's" >&2
    exit 1
  fi
  times[$mode]+="$(( (t1 - t0) / 1000000 )) "
}
modes=(plain ring stream deflate stream-raw watch)
for ((r = 1; r <= rounds; r++)); do
  for mode in "${modes[@]}"; do
    run "$mode"
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
plain=$(median "${times[plain]}")
echo "Median of $rounds rounds; every run's output identical to the plain run's (${want[p]}):"
echo
echo "| run | wall s | ratio to plain |"
echo "| --- | --- | --- |"
summary=""
for mode in "${modes[@]}"; do
  m=$(median "${times[$mode]}")
  printf '| %s | %s | %s |\n' "$mode" "$(ratio "$m" 1000)" "$(ratio "$m" "$plain")"
  summary+=" ${mode}=$(ratio "$m" "$plain")"
done
echo
for trace in stream.trace deflate.trace raw.trace; do
  size=$(stat -c %s "$trace")
  GOMAXPROCS=1 /usr/bin/time -o time.txt -f "%e %M" ./tracebeat decode --map inst/methodMapping.txt --top 1 --max-stack 1 "$trace" >summary.txt 2>notes.txt
  read -r wall rss_kb <time.txt
  calls=$(head -1 summary.txt | sed -n 's/.* \([0-9]*\) calls$/\1/p')
  lost=$(grep -c 'lost' notes.txt || true)
  records=$((2 * calls))
  printf '%s: %d calls, %d bytes, %.3f bytes a record, %s notes of lost records; decoded (text, one core) in %s s: %.2fM records/s, peak RSS %d MB\n' \
    "$trace" "$calls" "$size" "$(awk -v s="$size" -v r="$records" 'BEGIN { print s / r }')" "$lost" "$wall" \
    "$(awk -v r="$records" -v w="$wall" 'BEGIN { print r / w / 1e6 }')" $((rss_kb >> 10))
  summary+=" ${trace%.trace}_bytes_per_record=$(awk -v s="$size" -v r="$records" 'BEGIN { printf "%.3f", s / r }') ${trace%.trace}_decode=$(awk -v r="$records" -v w="$wall" 'BEGIN { printf "%.2fM/s", r / w / 1e6 }') ${trace%.trace}_lost_notes=$lost"
done

# A dump of a full 16 MiB ring.
mkdir dense
javac -d dense "$ROOT/jvmruntime/testdata/dense/fixture/Dense.java"
./tracebeat instrument -q -o dense-inst dense
java -Dtracebeat.trace=dense.trace -cp rt.jar:dense-inst/dense fixture.Dense 45 >/dev/null 2>&1 &
dense_pid=$!
sleep 3
dumps=""
for n in 1 2 3; do
  t0=$(date +%s%N)
  ./tracebeat dump "$dense_pid" -o "$WORK/dump$n.trace" >/dev/null
  t1=$(date +%s%N)
  dumps+="$(( (t1 - t0) / 1000000 )) "
  sleep 1
done
kill "$dense_pid" 2>/dev/null || true
wait "$dense_pid" 2>/dev/null || true
dump_ms=$(median "$dumps")
echo "dump of a full ring (16 MiB): median $dump_ms ms of three ($dumps ms), $(stat -c %s dump2.trace) bytes"
echo "whole-run:$summary dump_ms=$dump_ms"
