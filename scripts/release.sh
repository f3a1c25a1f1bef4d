#!/usr/bin/env bash
# usage: scripts/release.sh [--host-only] OUTDIR
#
# Builds a release of the version in VERSION into OUTDIR:
#   OUTDIR/bin/<classifier>/tracebeat[.exe]  linux/amd64, linux/arm64,
#       darwin/amd64, darwin/arm64, windows/amd64 (CGO_ENABLED=0, -trimpath:
#       the same commit and Go give the same bytes)
#   OUTDIR/maven  a Maven repository: the binaries (classifiers
#       linux-x86_64, linux-aarch_64, osx-x86_64, osx-aarch_64,
#       windows-x86_64), the Gradle plugin and its marker (so that
#       plugins { id 'com.github.tracebeat' version 'V' } resolves), the JVM
#       runtime jar, POMs, .sha1/.sha256 files and maven-metadata.xml.
# The last line is "release: version=V maven=ABSOLUTE_PATH".
# Needs Go, a JDK and Gradle (the plugin compiles against its API); nothing
# from the network beyond what scripts/test.sh installs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
echo "release: compiling the release tool (go run ./internal/tools/release) ..." >&2
exec go run ./internal/tools/release "$@"
