#!/usr/bin/env bash
# usage: bench/runtime-overhead.sh [--rounds N]   (default 3)
#
# What recording costs a real program. ProGuard 6 (Debian's proguard-cli)
# obfuscates Debian's commons-lang3 (-dontshrink -dontoptimize, as the
# ProGuard integration test does: about 60 million traced calls), three ways
# in each round, one after the other:
#   plain      the original proguard.jar
#   noop       proguard.jar instrumented (default rules), with a runtime whose
#              i()/o() do nothing (bench/noop): the cost of the calls alone
#   recording  proguard.jar instrumented, with `tracebeat runtime`'s jar and
#              -Dtracebeat.trace: the cost of recording (default budget)
# It checks that the three give the same output (the obfuscated jar's entries
# and the mapping; ProGuard stamps entries with the current time, so the
# jar's bytes differ run to run), reports each mode's median wall time as a
# ratio to plain, and how much of the recording's extra time the clock
# explains: two System.nanoTime() reads per call (bench/ClockCost.java).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3
while (($#)); do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    *) echo "usage: bench/runtime-overhead.sh [--rounds N]" >&2; exit 2 ;;
  esac
done
PROGUARD=/usr/share/java/proguard.jar
LANG3=/usr/share/java/commons-lang3.jar
for f in "$PROGUARD" "$LANG3"; do
  [[ -f "$f" ]] || { echo "runtime-overhead: $f missing (Debian: apt-get install -y proguard-cli libcommons-lang3-java)" >&2; exit 2; }
done
for tool in go java javac unzip sha256sum; do
  command -v "$tool" >/dev/null || { echo "runtime-overhead: $tool not found" >&2; exit 2; }
done
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

(cd "$ROOT" && go build -o "$WORK/" ./cmd/tracebeat ./internal/tools/jdklib)
./jdklib -o jdk-lib.jar
./tracebeat instrument -q -o inst "$PROGUARD"
./tracebeat runtime -o tracebeat-runtime.jar 2>/dev/null
javac -J-XX:TieredStopAtLevel=1 --release 8 -implicit:none -sourcepath "$ROOT/jvmruntime/stub" -d noop \
  "$ROOT/bench/noop/com/tencent/matrix/trace/core/AppMethodBeat.java"
javac -J-XX:TieredStopAtLevel=1 -d clock "$ROOT/bench/ClockCost.java"
cat >proguard.pro <<PRO
-injars $LANG3
-outjars out.jar
-libraryjars jdk-lib.jar
-dontshrink
-dontoptimize
-dontnote
-dontwarn java.beans.**
-printmapping out-mapping.txt
PRO

# run MODE: one ProGuard run; sets last_ms to its wall time and checks its
# output against the first run's.
want=""
run() {
  local mode="$1" cp props=()
  case "$mode" in
    plain) cp="$PROGUARD" ;;
    noop) cp="noop:inst/proguard.jar" ;;
    recording) cp="tracebeat-runtime.jar:inst/proguard.jar"; props=(-Dtracebeat.trace=recording.trace) ;;
  esac
  rm -f out.jar out-mapping.txt # ProGuard skips a run whose output is newer than its input
  local t0 t1
  t0=$(date +%s%N)
  java "${props[@]}" -cp "$cp" proguard.ProGuard @proguard.pro >"$mode.log" 2>&1 ||
    { cat "$mode.log" >&2; echo "runtime-overhead: ProGuard failed ($mode)" >&2; exit 1; }
  t1=$(date +%s%N)
  local digest
  digest=$({ unzip -Z1 out.jar; unzip -p out.jar; cat out-mapping.txt; } | sha256sum | cut -c1-16)
  if [[ -z "$want" ]]; then
    want="$digest"
  elif [[ "$digest" != "$want" ]]; then
    echo "runtime-overhead: $mode's output differs from plain's ($digest, want $want)" >&2
    exit 1
  fi
  last_ms=$(( (t1 - t0) / 1000000 ))
}

declare -A times
for ((r = 1; r <= rounds; r++)); do
  for mode in plain noop recording; do
    run "$mode"
    times[$mode]+="$last_ms "
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
plain=$(median "${times[plain]}")
noop=$(median "${times[noop]}")
rec=$(median "${times[recording]}")

summary=$(./tracebeat decode --map inst/methodMapping.txt --top 1 --max-stack 1 recording.trace 2>/dev/null | head -2)
kept=$(sed -n 's/.*"main": \([0-9]*\) calls.*/\1/p' <<<"$summary")
lost=$(sed -n 's/.* \([0-9]*\) records lost.*/\1/p' <<<"$summary")
calls=$(( kept + ${lost:-0} / 2 ))
clock_ns=$(java -cp clock ClockCost)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
clock_ms=$(awk -v c="$calls" -v ns="$clock_ns" 'BEGIN { printf "%d", 2 * c * ns / 1e6 }')
extra_ms=$(( rec - plain ))
echo
echo "ProGuard 6 over commons-lang3, median of $rounds rounds, outputs identical in all $((3 * rounds)) runs ($want):"
echo
echo "| run | wall s | ratio to plain |"
echo "| --- | --- | --- |"
printf '| plain | %s | 1.00 |\n' "$(ratio "$plain" 1000)"
printf '| instrumented, no-op runtime | %s | %s |\n' "$(ratio "$noop" 1000)" "$(ratio "$noop" "$plain")"
printf '| instrumented, recording | %s | %s |\n' "$(ratio "$rec" 1000)" "$(ratio "$rec" "$plain")"
echo
echo "traced calls: about $calls ($kept kept in the recording, the rest overwritten by the default 64 MiB budget)"
echo "clock: System.nanoTime() costs $clock_ns ns here; 2 per call = $clock_ms ms of the recording's $extra_ms ms extra"
echo "runtime-overhead: plain_s=$(ratio "$plain" 1000) noop_ratio=$(ratio "$noop" "$plain") recording_ratio=$(ratio "$rec" "$plain") calls=$calls nanotime_ns=$clock_ns clock_share=$(ratio "$clock_ms" "$extra_ms")"
