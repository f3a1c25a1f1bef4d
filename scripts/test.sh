#!/usr/bin/env bash
# usage: scripts/test.sh
# Runs the whole test suite (go vet + go test). Installs what the tests need
# when it is missing, from Debian's packages (as root, with apt-get): a JDK
# 17, ProGuard, Gradle, commons-lang3, zip, ASM, Gson and picocli (a
# start-up program the clock test records), Chromium (the HTML page is
# opened in it), and the Kotlin, Groovy and Eclipse compilers whose
# classes the conformance tests instrument.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

need=()
command -v javac >/dev/null 2>&1 || need+=(openjdk-17-jdk-headless)
command -v proguard >/dev/null 2>&1 || need+=(proguard-cli)
command -v gradle >/dev/null 2>&1 || need+=(gradle)
[[ -f /usr/share/java/commons-lang3.jar ]] || need+=(libcommons-lang3-java)
command -v zip >/dev/null 2>&1 || need+=(zip)
[[ -f /usr/share/java/asm.jar ]] || need+=(libasm-java)
[[ -f /usr/share/java/gson.jar ]] || need+=(libgoogle-gson-java)
[[ -f /usr/share/java/picocli.jar ]] || need+=(libpicocli-java)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v kotlinc >/dev/null 2>&1 || need+=(kotlin)
command -v groovyc >/dev/null 2>&1 || need+=(groovy)
command -v ecj >/dev/null 2>&1 || need+=(ecj)
if ((${#need[@]})); then
  if [[ "$(id -u)" != 0 ]]; then
    echo "test.sh: missing ${need[*]}: install them (apt-get install ${need[*]}) or run as root" >&2
    exit 1
  fi
  echo "test.sh: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq "${need[@]}"; }
fi
command -v go >/dev/null 2>&1 || export PATH="$PATH:/usr/local/go/bin"

go vet ./...
# A package's tests may take longer than go test's 10 minutes on a busy 2-core machine.
go test -count=1 -timeout 30m ./...
