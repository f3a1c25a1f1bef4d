#!/usr/bin/env bash
# usage: scripts/formats-check.sh
# Has the real readers of the formats decode writes for other tools open
# them (cmd/tracebeat's TestFormatsOpenInTheirReaders): Debian's
# dmtracedump reads --format art (Android's method trace), `go tool pprof`
# --format pprof, inferno (crates.io) --format collapsed, and speedscope's
# own schema (its npm package) validates --format speedscope. Installs
# what is missing, pinned, under the user's cache (dmtracedump from
# Debian's packages, as root).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
SPEEDSCOPE=1.25.0
INFERNO=0.12.3
JSONSCHEMA=4.26.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tracebeat"
if ! command -v dmtracedump >/dev/null; then
  [[ "$(id -u)" == 0 ]] || { echo "formats-check: dmtracedump missing: apt-get install dmtracedump" >&2; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq dmtracedump >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq dmtracedump >/dev/null; }
fi
schema="$cache/speedscope-$SPEEDSCOPE/node_modules/speedscope/dist/release/file-format-schema.json"
if [[ ! -f "$schema" ]]; then
  mkdir -p "$cache/speedscope-$SPEEDSCOPE"
  (cd "$cache/speedscope-$SPEEDSCOPE" && npm install --silent --no-audit --no-fund "speedscope@$SPEEDSCOPE" >/dev/null)
fi
venv="$cache/jsonschema-$JSONSCHEMA"
if ! "$venv/bin/python" -c 'import jsonschema' 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "jsonschema==$JSONSCHEMA"
fi
inferno="$cache/inferno-$INFERNO/bin/inferno-flamegraph"
if [[ ! -x "$inferno" ]]; then
  echo "formats-check: building inferno $INFERNO from crates.io (a few minutes, once)" >&2
  cargo install -q --locked --root "$cache/inferno-$INFERNO" inferno --version "$INFERNO" >&2
fi
status=0
log=$(TRACEBEAT_REQUIRE_READERS=1 TRACEBEAT_SPEEDSCOPE_SCHEMA="$schema" TRACEBEAT_JSONSCHEMA_PYTHON="$venv/bin/python" \
  TRACEBEAT_INFERNO="$inferno" go test -count=1 -run 'TestFormatsOpenInTheirReaders' -v ./cmd/tracebeat 2>&1) || status=$?
grep -E '^(--- |ok|FAIL|PASS)|Error|formats-check' <<<"$log" || true
if ((status == 0)); then
  echo "formats-check: dmtracedump, go tool pprof, inferno $INFERNO and speedscope $SPEEDSCOPE's schema read every file decode wrote"
fi
exit "$status"
