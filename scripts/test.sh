#!/usr/bin/env bash
# usage: scripts/test.sh
# Runs the whole test suite (go vet + go test), after installing what the
# tests need when it is missing (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install-deps.sh
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"

go vet ./...
# A package's tests may take longer than go test's 10 minutes on a busy 2-core machine.
go test -count=1 -timeout 30m ./...
