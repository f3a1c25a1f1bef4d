// Package androidcheck holds the Android check (its tests only): an app
// of Activities compiled against Android's own framework, instrumented by
// the tracebeat binary, run under Robolectric with Matrix's own
// AppMethodBeat (matrix-trace-canary) recording it, and Matrix's own
// TraceDataUtils turning the buffer into the stack it reports, which
// tracebeat decode names; in systrace mode, Android's own android.os.Trace
// (Robolectric's ShadowTrace) sees the sections. scripts/android-check.sh
// fetches the jars and runs it; the default suite skips it.
package androidcheck
