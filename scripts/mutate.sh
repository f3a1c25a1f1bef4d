#!/usr/bin/env bash
# usage: scripts/mutate.sh [FLAGS...] [PACKAGES...]
#   (default: classfile instrument/rewrite methodmap mapping blacklist decode
#   (with decode/recording and decode/traceout below it) diff profile
#   instrument/scan instrument/jario)
#   FLAGS go to the tool: -results FILE keeps every outcome and takes the
#   detected mutants from it on the next run while the code is unchanged;
#   -files REGEXP mutates only the files it matches.
# Mutation testing of the core packages by their own tests
# (internal/tools/mutate: one operator changed at a time, tested through
# go test -overlay, the tree never written). A package's tests are those of
# its directory and below; the tests that compile and run a Java program
# end to end are left out (their packages' unit tests must catch the
# mutant). Mutants written down as equivalent in scripts/mutate-equivalent.txt
# are not counted. Prints each survivor, a line per package, and last:
#   mutate: packages=N mutants=N killed=N survived=N timed_out=N score=P%
# Takes tens of minutes: not part of the default suite (docs/testing.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# The rewrite tests compile Java and Kotlin fixtures; without the compilers
# they skip, and their mutants would seem to live.
scripts/install-deps.sh
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"
flags=()
while (($#)) && [[ $1 == -* ]]; do
  case $1 in
    -results|-files|-workers|-sample) flags+=("$1" "$2"); shift 2 ;;
    *) flags+=("$1"); shift ;;
  esac
done
packages=("$@")
((${#packages[@]})) || packages=(classfile instrument/rewrite methodmap mapping blacklist decode diff profile instrument/scan instrument/jario)
# End-to-end tests that run a JVM program (seconds each, for every mutant).
skip='^(TestRuntimeStubsWriteWhatDecodeReads|TestFixtureSourcesCompile)$'
exec go run ./internal/tools/mutate -skip "$skip" -equivalent scripts/mutate-equivalent.txt ${flags[@]+"${flags[@]}"} "${packages[@]}"
