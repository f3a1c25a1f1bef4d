#!/usr/bin/env bash
# usage: scripts/long-tests.sh
# The tests that back claims of the docs but are too long for the default
# suite: decode's 10-million-record stream in bounded memory and a whole
# ProGuard run recorded in stream mode, every call of it counted, the diff
# gate's verdicts on a loaded machine (TRACEBEAT_LONG_TESTS=1), and, where the lab's corpus is built
# (/tmp/lab/corpus, by ../shared/lab/setup.sh), the class-file round trip
# of every class of it (TRACEBEAT_CORPUS). Prints a summary line; exits
# non-zero on a failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
TRACEBEAT_LONG_TESTS=1 go test -count=1 -run 'TestStreamingTenMillionRecords' ./decode
TRACEBEAT_LONG_TESTS=1 go test -count=1 -run 'TestProGuardWholeRun' ./cmd/tracebeat
TRACEBEAT_LONG_TESTS=1 go test -count=1 -timeout 30m -run 'TestDiffOnALoadedMachine|TestDiffNamesTheSlowerMethodLoaded' ./cmd/tracebeat
ran="decode-10M proguard-whole-run diff-loaded"
if [[ -d /tmp/lab/corpus ]]; then
  TRACEBEAT_CORPUS=/tmp/lab/corpus go test -count=1 -run 'TestCorpusRoundTrip' ./classfile
  ran+=" classfile-corpus"
fi
echo "long-tests: ran $ran"
