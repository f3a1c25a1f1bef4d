#!/usr/bin/env bash
# usage: bench/viewer-rates.sh
#
# The bounds of the page and of the formats for other tools, on the
# ProGuard recording (ProGuard 6 obfuscating commons-lang3, the program of
# bench/runtime-overhead.sh, recorded with the default settings: about 2
# million calls kept): for each of --format html, art, speedscope, pprof
# and collapsed, one decode on one core (GOMAXPROCS=1) with its wall time,
# records per second (two per call), peak RSS against the recording's size
# and the file's size per call; then the page's first drawing in headless
# Chromium (internal/tools/pagetime). The bounds: a page of at most 16
# bytes a call, drawn within 3 s; every format at 2 million records a
# second or more, in at most twice the recording's size.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ -x /usr/bin/time ]] || { echo "viewer-rates: /usr/bin/time missing (Debian: apt-get install -y time)" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
(cd "$ROOT" && go build -o "$WORK/" ./cmd/tracebeat ./internal/tools/jdklib ./internal/tools/pagetime)
./jdklib -o jdk-lib.jar
# shellcheck source=bench/proguard.sh
source "$ROOT/bench/proguard.sh"
proguard_setup viewer-rates
./tracebeat runtime -o runtime.jar 2>/dev/null
./tracebeat instrument -q -o inst "$PROGUARD"
java -Dtracebeat.trace=app.trace -cp "runtime.jar:inst/proguard.jar" proguard.ProGuard @proguard.pro >/dev/null
size=$(stat -c %s app.trace)
calls=$(./tracebeat decode --map inst/methodMapping.txt --top 1 --max-stack 1 app.trace 2>/dev/null | head -1 | grep -o '[0-9]* calls$' | cut -d' ' -f1)
echo "viewer-rates: app.trace $((size / 1048576)) MB, $calls calls"
echo "| format | wall s | records/s | peak RSS MB | RSS / recording | bytes per call |"
echo "| --- | --- | --- | --- | --- | --- |"
for format in ${FORMATS:-html art speedscope pprof collapsed}; do
  GOMAXPROCS=1 /usr/bin/time -f '%e %M' -o time.txt ./tracebeat decode --map inst/methodMapping.txt --format "$format" -o "out.$format" app.trace 2>/dev/null
  read -r wall rss_kb < <(tail -1 time.txt)
  out=$(stat -c %s "out.$format")
  awk -v f="$format" -v w="$wall" -v r="$rss_kb" -v s="$size" -v c="$calls" -v o="$out" 'BEGIN {
    printf "| %s | %.2f | %.2fM | %d | %.2f | %.1f |\n", f, w, 2 * c / (w > 0 ? w : 0.01) / 1e6, r / 1024, r * 1024 / s, o / c }'
done
[[ ! -f out.html ]] || ./pagetime out.html
