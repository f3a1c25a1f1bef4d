#!/usr/bin/env bash
# usage: bench/view.sh
#
# `tracebeat view` on a whole run: ProGuard 6 obfuscating commons-lang3
# (about 62 million traced calls, bench/proguard.sh) recorded in stream
# mode, served, and used in headless Chromium (internal/tools/pagetime):
# the first drawing, the timeline's first window, 30 and more zoom steps
# in (W) down to about a millisecond, 20 pans (D), each timed from the key
# to its window drawn with the calls it needs. Prints pagetime's line, the
# time and peak memory of reading the recording, and last:
#   view: calls=N read_s=S rss_mb=M first_draw_ms=... zoom_max_ms=... pan_max_ms=...
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/proguard.sh
source "$ROOT/bench/proguard.sh"
proguard_check view
for tool in go java chromium; do
  command -v "$tool" >/dev/null || { echo "view: $tool not found" >&2; exit 2; }
done
WORK="$(mktemp -d)"
view_pid=""
trap '[[ -z $view_pid ]] || pkill -INT -P "$view_pid" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cd "$WORK"
proguard_whole_run "$ROOT"
/usr/bin/time -o time.txt -f "%M" ./tracebeat view --map inst/methodMapping.txt stream.trace >url.txt 2>view.log &
view_pid=$!
for _ in $(seq 600); do
  [[ -s url.txt ]] && break
  kill -0 "$view_pid" 2>/dev/null || { cat view.log >&2; exit 1; }
  sleep 0.5
done
url=$(head -1 url.txt)
read_line=$(grep 'read in' view.log)
line=$(PAGETIME_STEPS=1 ./pagetime "$url")
echo "$line"
pkill -INT -P "$view_pid" || true
wait "$view_pid" || true
view_pid=""
rss_mb=$(( $(tail -1 time.txt) / 1024 ))
read_s=$(sed -E 's/.*read in ([0-9.]+) s.*/\1/' <<<"$read_line")
echo "$read_line"
echo "view: $(sed -E 's/^pagetime: //' <<<"$line") read_s=$read_s rss_mb=$rss_mb"
