#!/usr/bin/env bash
# usage: scripts/install-deps.sh
# Installs what the tests need when it is missing, from Debian's packages
# (as root, with apt-get): a JDK 17, ProGuard, Gradle, commons-lang3, zip,
# ASM, Gson and picocli (a start-up program the clock test records),
# Chromium (the HTML page is opened in it), and the Kotlin, Groovy and
# Eclipse compilers whose classes the conformance tests instrument.
# scripts/test.sh and scripts/mutate.sh call it.
set -euo pipefail

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
    echo "install-deps.sh: missing ${need[*]}: install them (apt-get install ${need[*]}) or run as root" >&2
    exit 1
  fi
  echo "install-deps.sh: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq "${need[@]}"; }
fi
