# Sourced by the benchmarks that record ProGuard 6 obfuscating
# commons-lang3 (the densest program we know).

# proguard_check NAME sets PROGUARD and LANG3 and stops the benchmark
# NAME when either jar is missing.
proguard_check() {
  PROGUARD=/usr/share/java/proguard.jar
  LANG3=/usr/share/java/commons-lang3.jar
  for f in "$PROGUARD" "$LANG3"; do
    [[ -f "$f" ]] || { echo "$1: $f missing (Debian: apt-get install -y proguard-cli libcommons-lang3-java)" >&2; exit 2; }
  done
}

# proguard_config writes proguard.pro, the run's configuration, into the
# current folder, beside jdk-lib.jar (internal/tools/jdklib's output).
proguard_config() {
  cat >proguard.pro <<PRO
-injars $LANG3
-outjars out.jar
-libraryjars jdk-lib.jar
-dontshrink
-dontoptimize
-dontnote
-dontwarn java.beans.**
-printmapping out-mapping.txt
PRO
}

# proguard_setup NAME does both.
proguard_setup() {
  proguard_check "$1"
  proguard_config
}

# proguard_whole_run ROOT records the whole run in stream mode into
# stream.trace in the current folder, with the tools it builds there
# (tracebeat, jdklib, pagetime) and ProGuard instrumented into inst/
# (its map inst/methodMapping.txt). proguard_check comes first.
proguard_whole_run() {
  (cd "$1" && go build -o "$OLDPWD/" ./cmd/tracebeat ./internal/tools/jdklib ./internal/tools/pagetime)
  ./jdklib -o jdk-lib.jar
  ./tracebeat instrument -q -o inst "$PROGUARD"
  ./tracebeat runtime -o rt.jar 2>/dev/null
  proguard_config
  java -Dtracebeat.trace=stream.trace -Dtracebeat.mode=stream -cp rt.jar:inst/proguard.jar proguard.ProGuard @proguard.pro >proguard.log 2>&1 ||
    { cat proguard.log >&2; exit 1; }
}
