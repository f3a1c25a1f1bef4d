// Package moderngate holds the modern gate (its tests only): the bytecode
// apps ship today, from Maven Central (Kotlin 2's standard library and
// compiler, coroutines, serialization, OkHttp 5, Okio 3, Retrofit, Moshi,
// Ktor, the Compose runtime) and compiled here (Kotlin 2 fixtures with
// invokedynamic and class lambdas, Java 21 and 25 fixtures, a
// multi-release jar, a ProGuard 7 build), instrumented by the tracebeat
// binary with the default options, with --trace-all and in systrace mode,
// verified by HotSpot (Temurin 25, -Xverify:all) against the originals,
// and real programs run from the instrumented jars with their calls
// counted. scripts/modern-gate.sh fetches the jars and runs it; the
// default suite skips it.
package moderngate
