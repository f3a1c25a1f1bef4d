#!/usr/bin/env bash
# usage: bench/gradle-edit.sh [--android]
# The edit-build cycle with the Gradle plugin (real Gradle, Debian's 4.4.1,
# offline): a project grown by groovy-all's classes, built, one source file
# edited, built again. Prints the instrument task's time in both builds
# (Gradle's --profile), the tool's own time, and their ratios; the last
# line reads "gradle-edit: SHAPE: second/first task_ratio=R tool_ratio=R".
# Fails when the second build's task takes more than 20% of the first's
# (gradle/editcycle_test.go).
#   (default)  the Java sample: the app's jar and groovy-all, mirrored
#   --android  the AGP stand-in's app with the sample's sources and
#              settings: two class directories and two jars, merged into
#              one; also fails when the tool's own time exceeds 10%
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
case "${1:-}" in
  --android) export TRACEBEAT_BENCH_ANDROID=1 ;;
  "") ;;
  *) echo "usage: bench/gradle-edit.sh [--android]" >&2; exit 2 ;;
esac
TRACEBEAT_BENCH_GRADLE=1 go test -count=1 -v -timeout 20m -run TestEditBuildCycle ./gradle 2>&1 |
  grep -E '^gradle-edit:|^(--- |ok|FAIL)|Error'
exit "${PIPESTATUS[0]}"
