package com.tencent.matrix.trace.core;

import com.github.tracebeat.runtime.Recorder;

/**
 * The class that code instrumented in beat mode calls: i(id) when a method
 * starts, o(id) when it ends (also when it ends by an exception), at() from
 * an Activity's onWindowFocusChanged.
 *
 * <p>It only forwards to {@link Recorder}. It never names itself (no static
 * state, no self calls), so {@code tracebeat runtime --beat-class NAME} can
 * give it another name by changing its this_class entry alone.
 */
public final class AppMethodBeat {
    private AppMethodBeat() {
    }

    public static void i(int methodId) {
        Recorder.enter(methodId);
    }

    public static void o(int methodId) {
        Recorder.exit(methodId);
    }

    /** An Activity's focus changed: on Android the first focus ends the cold start; a plain JVM has no Activities. */
    public static void at(android.app.Activity activity, boolean hasFocus) {
        Recorder.focus(activity, hasFocus);
    }
}
