package com.tencent.matrix.trace.core;

/**
 * A runtime that does nothing: bench/runtime-overhead.sh runs instrumented
 * code with it to separate the cost of the injected calls from the cost of
 * recording them.
 */
public final class AppMethodBeat {
    private AppMethodBeat() {
    }

    public static void i(int methodId) {
    }

    public static void o(int methodId) {
    }

    public static void at(android.app.Activity activity, boolean hasFocus) {
    }
}
