#!/usr/bin/env bash
# usage: scripts/demo.sh [WORK_DIR]   (default: out/demo)
#
# The README's first command. Builds tracebeat, compiles the demo app of
# testdata/demo (Activities, services, a class that throws, lambdas),
# obfuscates it with ProGuard, instruments the obfuscated jar with the
# ProGuard mapping, shows the method maps, checks the jar against its map,
# runs the instrumented app with tracebeat's recording runtime and decodes
# the recording: a summary, trace-event JSON for ui.perfetto.dev and a PNG.
#
# Needs Go, a JDK 17 (java, javac, jar) and ProGuard (Debian proguard-cli);
# when proguard is missing and this runs as root on Debian, it is installed.
# Everything is written below WORK_DIR, which is emptied first (only when
# it is empty or was made by an earlier run of this script).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${1:-$ROOT/out/demo}"
case "$WORK" in /*) ;; *) WORK="$PWD/$WORK" ;; esac

step() { printf '\n==> %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

for tool in go java javac jar; do
  command -v "$tool" >/dev/null || die "$tool not found on PATH (needs Go and a JDK 17)"
done
if ! command -v proguard >/dev/null; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
    step "installing ProGuard: apt-get install -y proguard-cli"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq proguard-cli >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq proguard-cli >/dev/null; }
  else
    die "proguard not found (Debian: apt-get install -y proguard-cli)"
  fi
fi

if [[ -d "$WORK" && ! -e "$WORK/.tracebeat-demo" && -n "$(ls -A "$WORK")" ]]; then
  die "refusing to empty $WORK: it was not made by this script"
fi
rm -rf "$WORK"
mkdir -p "$WORK"
touch "$WORK/.tracebeat-demo"
cd "$WORK"
DEMO="$ROOT/testdata/demo"
mapfile -t stub_sources < <(find "$DEMO/android-stub" -name '*.java' | sort)
mapfile -t app_sources < <(find "$DEMO/src" -name '*.java' | sort)

step "building tracebeat (in the background) and compiling the demo app"
# Java 8 class files: ProGuard 6 reads class files up to Java 13.
(cd "$ROOT" && go build -o "$WORK/" ./cmd/tracebeat ./internal/tools/jdklib) &
go_build=$!
# The android.app.Activity stand-in is a library: compiled on its own and
# never part of the app jar, like android.jar in an Android build.
javac -J-XX:TieredStopAtLevel=1 --release 8 -d android-stub "${stub_sources[@]}"
jar --create --file android-stub.jar -C android-stub .
javac -J-XX:TieredStopAtLevel=1 --release 8 -g -cp android-stub -d app-classes "${app_sources[@]}"
jar --create --file demo-app.jar -C app-classes .
echo "demo-app.jar: $(unzip -Z1 demo-app.jar | grep -c '\.class$') classes"
wait "$go_build" || die "go build failed"
./tracebeat version 2>/dev/null || true

step "obfuscating with ProGuard -> demo-app-obf.jar, mapping.txt"
./jdklib -o jdk-lib.jar # java.base as a library jar ProGuard 6 reads
cat >proguard.pro <<EOF
-injars demo-app.jar
-outjars demo-app-obf.jar
-libraryjars jdk-lib.jar
-libraryjars android-stub.jar
-keep public class com.example.demo.App { public static void main(java.lang.String[]); }
-keep public class * extends android.app.Activity
-dontoptimize
-dontnote
-printmapping mapping.txt
EOF
proguard @proguard.pro >proguard.log 2>&1 || { cat proguard.log >&2; die "ProGuard failed"; }
echo "classes in demo-app-obf.jar: $(unzip -Z1 demo-app-obf.jar | grep '\.class$' | tr '\n' ' ')"
echo "mapping.txt (head):"
head -n 8 mapping.txt | sed 's/^/    /'

step "tracebeat instrument --mapping mapping.txt --classpath android-stub.jar -o instrumented demo-app-obf.jar"
./tracebeat instrument --mapping mapping.txt --classpath android-stub.jar -o instrumented demo-app-obf.jar

step "instrumented/methodMapping.txt (original names, sorted by id)"
head -n 15 instrumented/methodMapping.txt
echo "... $(wc -l <instrumented/methodMapping.txt) lines"

step "instrumented/ignoreMethodMapping.txt"
head -n 15 instrumented/ignoreMethodMapping.txt
echo "... $(wc -l <instrumented/ignoreMethodMapping.txt) lines"

step "tracebeat check --map instrumented/methodMapping.txt --jar instrumented/demo-app-obf.jar --mapping mapping.txt"
./tracebeat check --map instrumented/methodMapping.txt --jar instrumented/demo-app-obf.jar --mapping mapping.txt

step "tracebeat runtime -o tracebeat-runtime.jar   (the recording runtime for a plain JVM)"
./tracebeat runtime -o tracebeat-runtime.jar

CP="tracebeat-runtime.jar:android-stub.jar:instrumented/demo-app-obf.jar"
step "java -Dtracebeat.trace=demo.trace -cp $CP com.example.demo.App"
java -Dtracebeat.trace=demo.trace -cp "$CP" com.example.demo.App 2>&1 | sed 's/^/    /'

step "tracebeat decode --map instrumented/methodMapping.txt demo.trace   (every thread, the slowest calls)"
./tracebeat decode --map instrumented/methodMapping.txt --top 3 --max-stack 12 demo.trace

step "tracebeat decode --map instrumented/methodMapping.txt --format json -o demo-trace.json --png demo-trace.png demo.trace"
./tracebeat decode --map instrumented/methodMapping.txt --format json -o demo-trace.json --png demo-trace.png demo.trace
echo "open $WORK/demo-trace.json in https://ui.perfetto.dev (\"Open trace file\"): one track per thread, named calls"
echo "$WORK/demo-trace.png is the same trace as a picture"
echo
echo "demo: done; everything is in $WORK"
