# Sourced by the benchmarks that record ProGuard 6 obfuscating
# commons-lang3 (the densest program we know): checks the two jars and
# writes proguard.pro, its configuration, into the current folder, beside
# jdk-lib.jar (internal/tools/jdklib's output). NAME is the benchmark's,
# for messages.
proguard_setup() {
  local name="$1"
  PROGUARD=/usr/share/java/proguard.jar
  LANG3=/usr/share/java/commons-lang3.jar
  for f in "$PROGUARD" "$LANG3"; do
    [[ -f "$f" ]] || { echo "$name: $f missing (Debian: apt-get install -y proguard-cli libcommons-lang3-java)" >&2; exit 2; }
  done
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
