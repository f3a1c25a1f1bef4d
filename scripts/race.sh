#!/usr/bin/env bash
# usage: scripts/race.sh [PACKAGE...]   (default ./...)
# The test suite under Go's race detector, run by .ci/run after the gates.
# On two cores it took 27 minutes here (while two fuzz targets ran on the
# same cores; cmd/tracebeat, which runs the tool over real jars many times,
# is most of it), which CI's 90 minutes hold beside the gates. Prints the
# packages and a last line:
#   race: packages=N failed=N data_races=N seconds=S
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
start=$(date +%s)
status=0
log=$(go test -race -count=1 -timeout 90m "${@:-./...}" 2>&1) || status=$?
# The packages' verdicts, and what a failing test said (its indented lines
# after --- FAIL) and a race's report, so that a failure in CI can be read.
awk 'race { print; if (/^==================$/) race = 0; next }
     /^WARNING: DATA RACE/ { race = 1; print; next }
     /^(ok|FAIL|panic)/ { failing = 0; print; next }
     /^--- FAIL/ { failing = 1; print; next }
     /^---/ { failing = 0; print; next }
     failing && /^[ \t]/ { print }' <<<"$log" || true
races=$(grep -c '^WARNING: DATA RACE' <<<"$log" || true)
echo "race: packages=$(grep -cE '^(ok|FAIL)[[:space:]]' <<<"$log" || true) failed=$(grep -cE '^FAIL[[:space:]]' <<<"$log" || true) data_races=$races seconds=$(($(date +%s) - start))"
exit "$status"
