#!/usr/bin/env bash
# usage: scripts/modern-gate.sh
# The modern gate: the bytecode apps ship today. Fetches the jars pinned in
# testdata/modern/pom.xml from Maven Central (Kotlin 2's stdlib and
# compiler, coroutines, serialization, OkHttp 5, Okio 3, Retrofit, Moshi,
# Ktor, the Compose runtime, ProGuard 7; cached in ~/.m2), compiles the
# fixtures of testdata/modern (Kotlin 2 with and without invokedynamic
# lambdas, Compose, Java 21 and 25, a multi-release jar, a ProGuard 7
# build), instruments everything with the default options, --trace-all and
# in systrace mode, has HotSpot (Temurin 25, -Xverify:all) compare each
# jar with its original, and runs real programs from the instrumented
# jars (internal/moderngate). Needs Maven, a JDK 17 and a JDK 25 (found
# under /usr/lib/jvm, or TRACEBEAT_JAVA25=JDK_HOME). TRACEBEAT_GATE_TOOL=BIN
# gates another tracebeat binary (an earlier build) instead of this tree's. The last line is
# "modern-gate: jars=N classes=N configs=3 new_verify_errors=N
# new_failovers=N unread=N programs=P/P seconds=S"; the exit status is
# non-zero when any of them is wrong.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
command -v mvn >/dev/null 2>&1 || { echo "modern-gate: mvn not found (Debian: apt-get install -y maven)" >&2; exit 1; }
java25="${TRACEBEAT_JAVA25:-}"
if [[ -z "$java25" ]]; then
  for d in /usr/lib/jvm/temurin-25* /usr/lib/jvm/java-25*; do
    [[ -x "$d/bin/java" ]] && java25="$d" && break
  done
fi
[[ -n "$java25" && -x "$java25/bin/java" ]] || { echo "modern-gate: no JDK 25 under /usr/lib/jvm; set TRACEBEAT_JAVA25" >&2; exit 1; }
lib="$(mktemp -d)"
trap 'rm -rf "$lib"' EXIT
start=$SECONDS
mvn -B -q -f testdata/modern/pom.xml dependency:copy-dependencies -DoutputDirectory="$lib" >&2
echo "modern-gate: $(ls "$lib" | wc -l) jars from Maven Central in $((SECONDS - start)) s (cached in ~/.m2 after the first run)" >&2
TRACEBEAT_MODERN_GATE="$lib" TRACEBEAT_JAVA25="$java25" TRACEBEAT_GATE_TOOL="${TRACEBEAT_GATE_TOOL:-}" \
  go test -count=1 -v -timeout 80m -run TestModernGate ./internal/moderngate 2>&1 |
  grep -E 'modern-gate:|^(---|===|FAIL|ok|PASS)|Error|differs|fails|balanced|accepted before' | sed 's/^ *[a-z_]*_test.go:[0-9]*: //'
exit "${PIPESTATUS[0]}"
