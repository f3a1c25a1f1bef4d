#!/usr/bin/env bash
# usage: scripts/wide-gate.sh
# The wider gate: real jars of other JVM toolchains from Debian's packages
# (Scala, Clojure, JavaCC, ANTLR 2 and 4, Jython), instrumented with the
# default options, with --trace-all and in systrace mode, and verified by
# HotSpot against their originals (internal/widegate). Installs the
# packages when missing (as root, with apt-get); prints one line per jar
# and mode and exits non-zero when any class HotSpot accepted before fails
# after, or a class HotSpot accepts could not be read.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"

need=()
for p in scala:scala-library-2.11.12.jar libclojure-java:clojure-1.11.1.jar javacc:javacc-7.0.12.jar \
  antlr4:antlr4.jar libantlr-java:antlr-2.7.7.jar jython:jython-2.7.3.jar libicu4j-java:icu4j.jar \
  libstringtemplate4-java:stringtemplate4.jar libtreelayout-java:treelayout.jar libantlr3-runtime-java:antlr3-runtime.jar; do
  [[ -f /usr/share/java/${p#*:} ]] || need+=("${p%%:*}")
done
if ((${#need[@]})); then
  if [[ "$(id -u)" != 0 ]]; then
    echo "wide-gate: missing ${need[*]}: apt-get install them or run as root" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null; }
fi
TRACEBEAT_WIDE_GATE=1 go test -count=1 -v -timeout 30m -run TestWideGate ./internal/widegate 2>&1 |
  grep -E 'wide-gate:|^(---|===|FAIL|ok|PASS)|Error|accepted before' | sed 's/^ *widegate_test.go:[0-9]*: //'
exit "${PIPESTATUS[0]}"
