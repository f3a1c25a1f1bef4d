// Package release builds what a tracebeat release is made of and lays it
// out as a Maven repository, the way Gradle resolves plugins and tools:
//
//	com/github/tracebeat/tracebeat/V/tracebeat-V-<classifier>.exe   the binaries
//	com/github/tracebeat/tracebeat-gradle/V/tracebeat-gradle-V.jar   the plugin
//	com/github/tracebeat/com.github.tracebeat.gradle.plugin/V/...pom its marker
//	com/github/tracebeat/tracebeat-runtime/V/tracebeat-runtime-V.jar the JVM runtime
//
// each with a POM, .sha1 and .sha256 files, and maven-metadata.xml per
// artifact. Classifiers follow protoc's (os-detector's) names: linux-x86_64,
// linux-aarch_64, osx-x86_64, osx-aarch_64, windows-x86_64. The plugin jar
// carries the version and every binary's SHA-256 (tracebeat-tool.properties),
// so the plugin can resolve and verify the binary of its own version.
//
// scripts/release.sh runs it through internal/tools/release; the Gradle
// test builds a host-only release with it. It knows nothing of
// instrumenting.
package release
