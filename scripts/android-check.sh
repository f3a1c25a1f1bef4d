#!/usr/bin/env bash
# usage: scripts/android-check.sh
# The real counterparts of the injected code: fetches Matrix's
# matrix-trace-canary, Robolectric with the Android framework (SDK 35) and
# Gradle 8's API as a jar (testdata/android/pom.xml), and the oldest
# Androids the runtime is for (testdata/android/oldest/pom.xml; both
# cached in ~/.m2), then
# (internal/androidcheck) compiles testdata/android/app against Android's
# framework, instruments it in beat and systrace mode, runs it under
# Robolectric with Matrix's AppMethodBeat recording and decodes Matrix's own
# stack, then with tracebeat's runtime in Matrix's place (every thread, the
# boot clock, the framework's tids; on API 35 and 23; its class files
# checked against API 21); and (gradle, TestGradle8API) compiles the plugin against Gradle 8's
# API and checks every Gradle member its bytecode names exists in Gradle 8
# and in Gradle 4.4.1. Needs Maven, a JDK 17 and Debian's Gradle. The last
# line is "android-check: matrix_stack_methods=N unknown_ids=0 top_ms=N
# focus_calls=N/N systrace_balanced=yes runtime_threads=3 runtime_calls=N
# boot_clock=yes tids=yes slow_ms=800.000 output_same=yes cold_start=yes
# warm_start=yes budget_kept=N budget_lost=N within_budget=yes sdk23_runtime=yes
# api21_links=yes
# looper_slow_reports=3 same_key=yes anr_while_running=yes
# message_sections=4 looper_output_same=yes files_dir=yes dumps=2
# broadcast_dump=yes recording_goes_on=yes
# stream_in_files_dir=yes stream_from_start=yes gradle8_api_refs=N missing=0";
# the exit status is non-zero when any of them is wrong.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
command -v mvn >/dev/null 2>&1 || { echo "android-check: mvn not found (Debian: apt-get install -y maven)" >&2; exit 1; }
lib="$(mktemp -d)"
log="$(mktemp)"
trap 'rm -rf "$lib" "$log"' EXIT
start=$SECONDS
mvn -B -q -f testdata/android/pom.xml dependency:copy-dependencies -DoutputDirectory="$lib" >&2
mvn -B -q -f testdata/android/oldest/pom.xml dependency:copy-dependencies -DoutputDirectory="$lib" >&2
echo "android-check: $(ls "$lib" | wc -l) artifacts from Maven Central in $((SECONDS - start)) s" >&2
status=0
TRACEBEAT_ANDROID_CHECK="$lib" go test -count=1 -v -timeout 30m -run 'TestAndroidCheck' ./internal/androidcheck >"$log" 2>&1 || status=1
TRACEBEAT_GRADLE8_API="$lib/gradle-api-8.11.1.jar" go test -count=1 -v -timeout 10m -run 'TestGradle8API' ./gradle >>"$log" 2>&1 || status=1
grep -E 'android-check:|gradle8-api:|^(---|FAIL|ok|PASS)|Error|want' "$log" | sed 's/^ *[a-z_0-9]*_test.go:[0-9]*: //'
checks="$(grep -o 'android-check: matrix_stack_methods=.*' "$log" | tail -1 | sed 's/^android-check: //')"
api="$(grep -o 'gradle8-api: refs=[0-9]* missing=[0-9]*' "$log" | tail -1 | sed 's/gradle8-api: refs=/gradle8_api_refs=/')"
echo "android-check: ${checks:-matrix_stack_methods=? unknown_ids=? top_ms=? focus_calls=?/? systrace_balanced=?} ${api:-gradle8_api_refs=? missing=?}"
exit "$status"
