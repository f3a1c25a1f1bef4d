#!/usr/bin/env bash
# usage: scripts/race.sh [PACKAGE...]   (default ./...)
# The test suite under Go's race detector. It is not part of .ci/run: on
# CI's two cores the detector makes the suite several times slower (the
# instrument and cmd/tracebeat packages run the tool over real jars many
# times), which does not fit CI's 90 minutes beside the gates. Run it
# before a release and after changing anything concurrent (the pipeline's
# workers, the cache, publishing, signals). Prints the packages and a last
# line: race: packages=N failed=N data_races=N seconds=S
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
start=$(date +%s)
status=0
log=$(go test -race -count=1 -timeout 90m "${@:-./...}" 2>&1) || status=$?
grep -E '^(ok|FAIL|---|panic)' <<<"$log" || true
races=$(grep -c '^WARNING: DATA RACE' <<<"$log" || true)
echo "race: packages=$(grep -cE '^(ok|FAIL)[[:space:]]' <<<"$log" || true) failed=$(grep -cE '^FAIL[[:space:]]' <<<"$log" || true) data_races=$races seconds=$(($(date +%s) - start))"
exit "$status"
