#!/usr/bin/env bash
# usage: scripts/build-runtime.sh
#
# Rebuilds jvmruntime/tracebeat-runtime.jar, the recording runtime that the
# tracebeat binary embeds, from jvmruntime/java (javac --release 8; the
# android.app.Activity stand-in under jvmruntime/stub is compiled against,
# never packed). Run it after changing the Java sources;
# TestEmbeddedJarMatchesSources fails until you do.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mapfile -t sources < <(find jvmruntime/java -name '*.java' | LC_ALL=C sort)
javac -J-XX:TieredStopAtLevel=1 --release 8 -Xlint:all -Werror -implicit:none \
  -sourcepath jvmruntime/stub -d "$tmp/classes" "${sources[@]}"
javac -version 2>&1 | awk '{print $2}' | cut -d. -f1 >jvmruntime/javac-version.txt
go run ./internal/tools/runtimejar "$tmp/classes" jvmruntime/tracebeat-runtime.jar
echo "build-runtime: jvmruntime/tracebeat-runtime.jar ($(wc -c <jvmruntime/tracebeat-runtime.jar) bytes, javac $(cat jvmruntime/javac-version.txt))"
