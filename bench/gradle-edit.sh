#!/usr/bin/env bash
# usage: bench/gradle-edit.sh
# The edit-build cycle with the Gradle plugin (real Gradle, Debian's 4.4.1,
# offline): the sample of testdata/gradle/sample grown by groovy-all's
# classes, built, one source file edited, built again. Prints the
# instrument task's time in both builds (Gradle's --profile), the tool's
# own time, and their ratio; fails when the second build's task takes more
# than 20% of the first's (gradle/editcycle_test.go).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
TRACEBEAT_BENCH_GRADLE=1 go test -count=1 -v -timeout 20m -run TestEditBuildCycle ./gradle 2>&1 |
  grep -E '^gradle-edit:|^(--- |ok|FAIL)|Error' 
exit "${PIPESTATUS[0]}"
