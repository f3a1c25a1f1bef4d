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
