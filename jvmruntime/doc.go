// Package jvmruntime is the recording runtime that instrumented code calls
// on a plain JVM, as the jar `tracebeat runtime` writes.
//
// The runtime is Java (java/, compiled with --release 8). The tool embeds
// the compiled jar, tracebeat-runtime.jar, so users need no build step and
// no javac; scripts/build-runtime.sh rebuilds it from the sources, and
// TestEmbeddedJarMatchesSources proves the embedded bytes are what the
// sources compile to. The jar holds:
//
//   - com.tencent.matrix.trace.core.AppMethodBeat: i(I)V, o(I)V and
//     at(Landroid/app/Activity;Z)V, what beat mode injects;
//   - android.os.Trace: beginSection/endSection, what systrace mode injects;
//   - com.github.tracebeat.runtime: the recorder (per-thread rings, one
//     memory budget, the file writer). decode/recording/RECORDING.md describes the
//     file it writes.
//
// This package knows the jar's entries and how to rename the beat class;
// it knows nothing of instrumenting or decoding.
package jvmruntime
