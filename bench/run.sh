#!/usr/bin/env bash
# usage: bench/run.sh [--reps N]
# The performance tables of docs/performance.md, measured in one run on this
# machine against the lab's baselines (../shared/lab, corpus in /tmp/lab):
#  1. lab/bench/bench.sh: copy floor, ASM/Matrix reference, tracebeat with
#     2 workers and with 1 worker (medians of N runs; wall, CPU, peak RSS);
#  2. linearity: the corpus split into two halves by size, each half and
#     the whole timed back to back;
#  3. the class-file layer on one core (go test -bench RoundTrip).
# Quote ratios from one run: absolute times drift on shared machines.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARED="$(cd "$ROOT/.." && pwd)/shared"
reps=3
[[ "${1:-}" == "--reps" ]] && reps="$2"
[[ -d "$SHARED/lab" ]] || { echo "bench: needs ../shared/lab" >&2; exit 2; }
(cd "$SHARED" && lab/setup.sh >/dev/null)
TB=/tmp/lab/tracebeat
(cd "$ROOT" && go build -o "$TB" ./cmd/tracebeat)

echo "== lab/bench/bench.sh (reps=$reps)"
(cd "$SHARED" && lab/bench/bench.sh --reps "$reps" \
  --tool tracebeat="$TB instrument --quiet --workers 2 -o {outdir} {inputs}" \
  --tool tracebeat-1w="$TB instrument --quiet --workers 1 -o {outdir} {inputs}")

echo "== linearity: halves vs whole (2 workers)"
mapfile -t jars < <(ls -SL /tmp/lab/corpus/*.jar)
a=() b=(); sa=0 sb=0
for j in "${jars[@]}"; do # greedy split by size
  s=$(stat -L -c %s "$j")
  if ((sa <= sb)); then a+=("$j"); sa=$((sa + s)); else b+=("$j"); sb=$((sb + s)); fi
done
t() { local out; out=$(mktemp -d); /usr/bin/time -f "%e" "$TB" instrument --quiet --workers 2 -o "$out" "$@" 2>&1 | tail -1; rm -rf "$out"; }
ta=$(t "${a[@]}"); tb=$(t "${b[@]}"); tw=$(t "${jars[@]}")
awk -v a="$ta" -v b="$tb" -v w="$tw" -v sa="$sa" -v sb="$sb" 'BEGIN {
  printf "half A %.1f MB %.2f s, half B %.1f MB %.2f s, whole %.2f s: whole / (A + B) = %.2f\n", sa/1e6, a, sb/1e6, b, w, w/(a+b) }'

echo "== incremental (--cache)"
"$ROOT/bench/incremental.sh" --reps "$reps" | tail -2

echo "== class-file layer, one core"
(cd "$ROOT" && TRACEBEAT_CORPUS=/tmp/lab/corpus go test ./classfile -run XXX -bench RoundTrip -benchtime 3x -cpu 1 | grep Benchmark)
