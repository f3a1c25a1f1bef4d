// Package gradle holds the tracebeat Gradle plugin: Java sources under
// src/main/java (plugin id com.github.tracebeat, see README.md) and the Go
// tests that compile the plugin and run it under a real Gradle on the
// sample projects in testdata/gradle. There is no Go API here.
package gradle
