#!/usr/bin/env bash
# usage: scripts/lab-gate.sh [tracebeat instrument flags...]
# Instruments every jar of the lab corpus (../shared/lab, built by
# lab/setup.sh into /tmp/lab/corpus) and has HotSpot verify the result
# against the originals with lab/verify/compare-corpus.sh. Default flags:
# --trace-all. Exits non-zero when any class that verified before fails
# after, so a change that breaks verification cannot land.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHARED="$(cd "$ROOT/.." && pwd)/shared"
[[ -d "$SHARED/lab" ]] || { echo "lab-gate: no $SHARED/lab, nothing to check" >&2; exit 0; }
flags=("$@")
[[ ${#flags[@]} -eq 0 ]] && flags=(--trace-all)

# The lab's corpus links Debian's jackson-databind, which its setup does not install.
if [[ ! -f /usr/share/java/jackson-databind.jar && "$(id -u)" == 0 ]]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjackson2-databind-java >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjackson2-databind-java >/dev/null; }
fi
(cd "$SHARED" && lab/setup.sh >/tmp/lab-gate-setup.log 2>&1) || {
  tail -20 /tmp/lab-gate-setup.log >&2; echo "lab-gate: lab setup failed" >&2; exit 1; }
work="$(mktemp -d /tmp/lab-gate.XXXXXX)"
trap 'rm -rf "$work"' EXIT
(cd "$ROOT" && go build -o "$work/tracebeat" ./cmd/tracebeat)
"$work/tracebeat" instrument --log-level error "${flags[@]}" -o "$work/out" /tmp/lab/corpus/*.jar
(cd "$SHARED" && lab/verify/compare-corpus.sh "$work/out")
