#!/usr/bin/env bash
# usage: bench/page-levels.sh
#
# The page of a whole run: ProGuard 6 obfuscating commons-lang3 (about 62
# million traced calls, bench/proguard.sh) recorded in stream mode, then
# `decode --format html` with its defaults: past 4 million calls the page
# holds levels of detail. Prints decode's wall time and peak memory, the
# page's size, and pagetime's lines (internal/tools/pagetime: the first
# drawing in headless Chromium, then 30 and more zoom steps in (W) down to
# about a millisecond and 20 pans (D), each timed to its frame drawn with
# the calls it needs), and last:
#   page-levels: ready_ms=... calls=N trace_mb=T decode_s=S rss_mb=M page_mb=P ... zoom_max_ms=... pan_max_ms=...
# (sizes in MiB).
# The bounds (issue 51): a page of at most 64 MB first drawn within 5 s.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/proguard.sh
source "$ROOT/bench/proguard.sh"
proguard_check page-levels
for tool in go java chromium; do
  command -v "$tool" >/dev/null || { echo "page-levels: $tool not found" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "page-levels: /usr/bin/time missing (Debian: apt-get install -y time)" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
proguard_whole_run "$ROOT"
/usr/bin/time -o time.txt -f "%e %M" ./tracebeat decode --map inst/methodMapping.txt --format html -o page.html stream.trace 2>decode.log ||
  { cat decode.log >&2; exit 1; }
read -r decode_s rss_kb < <(tail -1 time.txt)
page_mb=$(awk -v b="$(stat -c %s page.html)" 'BEGIN { printf "%.1f", b / 1048576 }')
detail_ns=$(grep -o '"detail_ns":[0-9]*' page.html | cut -d: -f2)
trace_mb=$(awk -v b="$(stat -c %s stream.trace)" 'BEGIN { printf "%.1f", b / 1048576 }')
lines=$(./pagetime page.html)
echo "$lines"
ready=$(head -1 <<<"$lines" | sed -E 's/^pagetime: //')
steps=$(tail -1 <<<"$lines" | sed -E 's/^pagetime: calls=[0-9]+ //')
echo "page-levels: $ready trace_mb=$trace_mb decode_s=$decode_s rss_mb=$((rss_kb / 1024)) page_mb=$page_mb detail_ns=$detail_ns $steps"
