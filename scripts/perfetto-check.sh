#!/usr/bin/env bash
# usage: scripts/perfetto-check.sh
# Has Perfetto's own compiled protos (the PyPI package perfetto, pinned,
# with protobuf) read the traces `decode --format perfetto` writes for each
# input kind (decode's TestPerfettoSchema: every packet parses, tracks are
# described, names interned, begins and ends balance per track, and the
# slices are the trace-event JSON's), and read a recording merged with a
# system trace made with them (cmd/tracebeat's TestPerfettoMerge: every
# slice on the app's threads, within the system trace's time). Makes a Python virtual environment
# for them under the user's cache the first time (python3-venv from
# Debian's packages when missing, as root).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
PERFETTO=0.59.1
PROTOBUF=7.36.2
venv="${XDG_CACHE_HOME:-$HOME/.cache}/tracebeat/perfetto-$PERFETTO"
if ! "$venv/bin/python" -c 'import perfetto.protos.perfetto.trace.perfetto_trace_pb2' 2>/dev/null; then
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    [[ "$(id -u)" == 0 ]] || { echo "perfetto-check: python3-venv missing: apt-get install python3-venv" >&2; exit 1; }
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq python3-venv >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null; }
  fi
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "perfetto==$PERFETTO" "protobuf==$PROTOBUF"
fi
status=0
log=$(TRACEBEAT_PERFETTO_PYTHON="$venv/bin/python" go test -count=1 -run 'TestPerfetto' -v ./decode ./cmd/tracebeat 2>&1) || status=$?
grep -E '^(--- |ok|FAIL|PASS)|Error|check_trace|merge_check|merged:' <<<"$log" || true
if ((status == 0)); then
  echo "perfetto-check: Perfetto's protos ($PERFETTO) read every trace decode wrote"
fi
exit "$status"
