// Package widegate holds the wider conformance gate (its test only):
// real jars of other JVM toolchains from Debian's packages (Scala,
// Clojure, JavaCC, ANTLR, Jython), instrumented by the tracebeat binary
// with the default options, with --trace-all and in systrace mode, and
// verified by HotSpot against their originals. scripts/wide-gate.sh
// installs the packages and runs it; the default suite skips it.
package widegate
