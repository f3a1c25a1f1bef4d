#!/usr/bin/env bash
# usage: bench/decode-rates.sh [--before REV]   (default REV: 176dd05)
#
# How fast decode reads a big recording, and in how much memory, in one
# run against the binary of REV: ProGuard 6 obfuscating commons-lang3 (the
# program of bench/runtime-overhead.sh) is recorded twice, with REV's
# runtime (a version-1 file, the only kind REV reads) and with this tree's
# (version 2, default settings); each binary then decodes each recording it
# reads to text, trace-event JSON, Perfetto and a PNG, on one core
# (GOMAXPROCS=1), one format at a time. It reports wall seconds, records per
# second (two per call), peak RSS against the file's size, and for JSON and
# Perfetto the bytes per slice.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before=176dd05
while (($#)); do
  case "$1" in
    --before) before="$2"; shift 2 ;;
    *) echo "usage: bench/decode-rates.sh [--before REV]" >&2; exit 2 ;;
  esac
done
# shellcheck source=bench/proguard.sh
source "$ROOT/bench/proguard.sh"
proguard_check decode-rates
for tool in go git java awk; do
  command -v "$tool" >/dev/null || { echo "decode-rates: $tool not found" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "decode-rates: /usr/bin/time missing (Debian: apt-get install -y time)" >&2; exit 2; }
WORK="$(mktemp -d)"
trap 'git -C "$ROOT" worktree remove --force "$WORK/before-src" 2>/dev/null || true; rm -rf "$WORK"' EXIT
cd "$WORK"

mkdir -p now before
(cd "$ROOT" && go build -o "$WORK/now/" ./cmd/tracebeat ./internal/tools/jdklib)
git -C "$ROOT" worktree add --detach -q "$WORK/before-src" "$before"
(cd before-src && go build -o "$WORK/before/" ./cmd/tracebeat)
now/jdklib -o jdk-lib.jar
now/tracebeat instrument -q -o inst "$PROGUARD"
proguard_config
for who in before now; do
  "$who/tracebeat" runtime -o "$who/runtime.jar" 2>/dev/null
  rm -f out.jar
  java -Dtracebeat.trace="$who.trace" -cp "$who/runtime.jar:inst/proguard.jar" proguard.ProGuard @proguard.pro >/dev/null
done

echo "| binary | recording | format | wall s | records/s | peak RSS MB | RSS / file | bytes per slice |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
summary=""
for trace in before.trace now.trace; do
  size=$(stat -c %s "$trace")
  calls=$(now/tracebeat decode --map inst/methodMapping.txt --top 1 --max-stack 1 "$trace" 2>/dev/null | head -1 | sed -n 's/.* \([0-9]*\) calls$/\1/p')
  records=$((2 * calls))
  for who in before now; do
    [[ "$who" == before && "$trace" == now.trace ]] && continue # a version REV does not read
    for format in text json perfetto png; do
      args=(--format "$format" -o "out.$format")
      [[ "$format" == png ]] && args=(--png out.png -o /dev/null)
      GOMAXPROCS=1 /usr/bin/time -o time.txt -f "%e %M" "$who/tracebeat" decode --map inst/methodMapping.txt "${args[@]}" "$trace" 2>/dev/null
      read -r wall rss_kb <time.txt
      per_slice="-"
      [[ "$format" == json || "$format" == perfetto ]] && per_slice=$(awk -v b="$(stat -c %s "out.$format")" -v c="$calls" 'BEGIN { printf "%.1f", b / c }')
      rate=$(awk -v r="$records" -v w="$wall" 'BEGIN { printf "%.2fM", r / w / 1e6 }')
      printf '| %s | %s (%d MB, %d calls) | %s | %s | %s | %d | %.2f | %s |\n' "$who" "${trace%.trace}'s" $((size >> 20)) "$calls" "$format" \
        "$wall" "$rate" $((rss_kb >> 10)) "$(awk -v r="$rss_kb" -v s="$size" 'BEGIN { print r * 1024 / s }')" "$per_slice"
      summary+=" ${who}_${trace%.trace}_${format}=${wall}s/${rate}/$((rss_kb >> 10))MB"
    done
  done
done
echo "decode-rates:$summary"
