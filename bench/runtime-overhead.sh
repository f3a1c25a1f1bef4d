#!/usr/bin/env bash
# usage: bench/runtime-overhead.sh [--rounds N] [--baseline-runtime JAR]   (default 3 rounds)
#
# What recording costs real programs, two of them, each run four ways in
# every round, one after the other:
#   proguard   ProGuard 6 (Debian's proguard-cli) obfuscates Debian's
#              commons-lang3 (-dontshrink -dontoptimize, as the ProGuard
#              integration test does): about 60 million traced calls in two
#              seconds, a call every few dozen nanoseconds, the densest
#              program we know;
#   javac      the JDK's javac (its jdk.compiler module, patched with an
#              instrumented copy) compiles testdata/classfile/src and the
#              runtime's own sources 10 times in one JVM (bench/JavacLoop):
#              methods that do more per call.
# and the four ways:
#   plain      the original program
#   noop       instrumented (default rules), with a runtime whose i()/o() do
#              nothing (bench/noop): the cost of the calls alone
#   recording  instrumented, with `tracebeat runtime`'s jar and
#              -Dtracebeat.trace: the default (shared) clock
#   budget64m  the same with -Dtracebeat.budget=64m (four times the default:
#              a ring that no cache holds)
#   precise    the same with -Dtracebeat.clock=precise: System.nanoTime()
#              for every record
#   baseline   with --baseline-runtime JAR: the recording run with another
#              runtime jar (an earlier release's: git show REV:jvmruntime/
#              tracebeat-runtime.jar), in the same rounds, for a ratio of
#              the two measured together
# It checks that every run gives the same output as the plain one
# (ProGuard's jar entries and mapping; javac's class files), reports each
# way's median wall time as a ratio to plain, and the clock's resolution
# as decode states it for the last recording of each program.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3
baseline=""
while (($#)); do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --baseline-runtime) baseline="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    *) echo "usage: bench/runtime-overhead.sh [--rounds N] [--baseline-runtime JAR]" >&2; exit 2 ;;
  esac
done
[[ -z "$baseline" || -f "$baseline" ]] || { echo "runtime-overhead: $baseline: no such jar" >&2; exit 2; }
# shellcheck source=bench/proguard.sh
source "$ROOT/bench/proguard.sh"
proguard_check runtime-overhead
for tool in go java javac jmod jar unzip sha256sum; do
  command -v "$tool" >/dev/null || { echo "runtime-overhead: $tool not found" >&2; exit 2; }
done
JMODS="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")/jmods"
[[ -f "$JMODS/jdk.compiler.jmod" ]] || { echo "runtime-overhead: $JMODS/jdk.compiler.jmod missing (a full JDK is needed)" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

(cd "$ROOT" && go build -o "$WORK/" ./cmd/tracebeat ./internal/tools/jdklib)
./jdklib -o jdk-lib.jar
./tracebeat instrument -q -o inst-proguard "$PROGUARD"
# javac: its module as a jar (module-info left out), instrumented.
jmod extract --dir jdk.compiler "$JMODS/jdk.compiler.jmod"
rm jdk.compiler/classes/module-info.class
jar --create --file jdk.compiler.jar -C jdk.compiler/classes .
./tracebeat instrument -q -o inst-javac jdk.compiler.jar
./tracebeat runtime -o tracebeat-runtime.jar 2>/dev/null
javac -J-XX:TieredStopAtLevel=1 --release 8 -implicit:none -sourcepath "$ROOT/jvmruntime/stub" -d noop \
  "$ROOT/bench/noop/com/tencent/matrix/trace/core/AppMethodBeat.java"
javac -J-XX:TieredStopAtLevel=1 -d loop "$ROOT/bench/JavacLoop.java"
mapfile -t javac_sources < <(find "$ROOT/testdata/classfile/src" "$ROOT/jvmruntime/java" -name '*.java' | LC_ALL=C sort)
proguard_config

# run PROGRAM MODE: one run; sets last_ms to its wall time and checks its
# output against the program's first run.
declare -A want
run() {
  local program="$1" mode="$2" runtime="" props=() cmd=()
  case "$mode" in
    noop) runtime=noop ;;
    recording) runtime=tracebeat-runtime.jar; props=(-Dtracebeat.trace="$program.trace") ;;
    budget64m) runtime=tracebeat-runtime.jar; props=(-Dtracebeat.trace="$program-64m.trace" -Dtracebeat.budget=64m) ;;
    precise) runtime=tracebeat-runtime.jar; props=(-Dtracebeat.trace="$program-precise.trace" -Dtracebeat.clock=precise) ;;
    baseline) runtime="$baseline"; props=(-Dtracebeat.trace="$program-baseline.trace") ;;
  esac
  case "$program" in
    proguard)
      local cp="$PROGUARD"
      [[ -n "$runtime" ]] && cp="$runtime:inst-proguard/proguard.jar"
      rm -f out.jar out-mapping.txt # ProGuard skips a run whose output is newer than its input
      cmd=(java "${props[@]}" -cp "$cp" proguard.ProGuard @proguard.pro) ;;
    javac)
      local patch=()
      [[ -n "$runtime" ]] && patch=(--patch-module "jdk.compiler=inst-javac/jdk.compiler.jar:$runtime")
      rm -rf classes && mkdir classes
      cmd=(java "${props[@]}" "${patch[@]}" -cp loop JavacLoop 10 classes -sourcepath "$ROOT/jvmruntime/stub" "${javac_sources[@]}") ;;
  esac
  local t0 t1
  t0=$(date +%s%N)
  "${cmd[@]}" >"$program-$mode.log" 2>&1 ||
    { cat "$program-$mode.log" >&2; echo "runtime-overhead: $program failed ($mode)" >&2; exit 1; }
  t1=$(date +%s%N)
  local digest
  case "$program" in
    proguard) digest=$({ unzip -Z1 out.jar; unzip -p out.jar; cat out-mapping.txt; } | sha256sum | cut -c1-16) ;;
    javac) digest=$(cd classes && find . -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16) ;;
  esac
  if [[ -z "${want[$program]:-}" ]]; then
    want[$program]="$digest"
  elif [[ "$digest" != "${want[$program]}" ]]; then
    echo "runtime-overhead: $program $mode's output differs from plain's ($digest, want ${want[$program]})" >&2
    exit 1
  fi
  last_ms=$(( (t1 - t0) / 1000000 ))
}

programs=(proguard javac)
modes=(plain noop recording budget64m precise)
[[ -n "$baseline" ]] && modes+=(baseline)
declare -A times
for ((r = 1; r <= rounds; r++)); do
  for program in "${programs[@]}"; do
    for mode in "${modes[@]}"; do
      run "$program" "$mode"
      times[$program-$mode]+="$last_ms "
    done
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo
echo "Median of $rounds rounds; every run's output identical to the plain run's (proguard ${want[proguard]}, javac ${want[javac]}):"
echo
echo "| program | run | wall s | ratio to plain |"
echo "| --- | --- | --- | --- |"
summary=""
for program in "${programs[@]}"; do
  plain=$(median "${times[$program-plain]}")
  for mode in "${modes[@]}"; do
    m=$(median "${times[$program-$mode]}")
    printf '| %s | %s | %s | %s |\n' "$program" "$mode" "$(ratio "$m" 1000)" "$(ratio "$m" "$plain")"
    summary+=" ${program}_${mode}=$(ratio "$m" "$plain")"
  done
done
echo
for program in "${programs[@]}"; do
  map="inst-$program/methodMapping.txt"
  for trace in "$program.trace" "$program-precise.trace"; do
    summary_text=$(./tracebeat decode --map "$map" --top 1 --max-stack 1 "$trace" 2>/dev/null)
    echo "$trace: $(grep -m1 '^  tid' <<<"$summary_text" | sed 's/^ *//')"
    echo "  $(sed -n 2p <<<"$summary_text")"
  done
done
echo "runtime-overhead:$summary"
