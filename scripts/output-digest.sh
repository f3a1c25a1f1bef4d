#!/usr/bin/env bash
# usage: scripts/output-digest.sh [BINARY]   (default: builds ./cmd/tracebeat)
#
# Instruments the lab corpus (/tmp/lab/corpus, made by ../shared/lab/setup.sh)
# in three modes (default rules, --trace-all, --mode systrace) and prints one
# SHA-256 per mode over every output file (jars and maps, in name order),
# then one over all three. A refactoring that must not change outputs
# compares this line before and after:
#   output-digest: default=... trace-all=... systrace=... all=...
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ -d /tmp/lab/corpus ]] || { echo "output-digest: needs the lab corpus (run ../shared/lab/setup.sh)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tool="${1:-}"
if [[ -z "$tool" ]]; then
  (cd "$ROOT" && go build -o "$work/tracebeat" ./cmd/tracebeat)
  tool="$work/tracebeat"
fi
line="output-digest:"
all=""
for mode in default trace-all systrace; do
  flags=()
  case "$mode" in
    trace-all) flags=(--trace-all) ;;
    systrace) flags=(--mode systrace) ;;
  esac
  "$tool" instrument --quiet "${flags[@]}" -o "$work/$mode" /tmp/lab/corpus/*.jar
  sum=$(cd "$work/$mode" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
  line+=" $mode=$sum"
  all+="$sum"
done
echo "$line all=$(printf '%s' "$all" | sha256sum | cut -c1-16)"
