package com.tencent.matrix.trace.core;

import java.util.concurrent.atomic.LongAdder;

/**
 * A runtime that counts the calls an instrumented program makes, another
 * way than the recorder: each i() and o() adds one to a counter, and the
 * counts are printed to stderr at exit ("counting: enters=N exits=M"). The
 * whole-run test compares them with what a stream-mode recording of the
 * same run decodes to.
 */
public final class AppMethodBeat {
    private static final LongAdder ENTERS = new LongAdder();
    private static final LongAdder EXITS = new LongAdder();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                System.err.println("counting: enters=" + ENTERS.sum() + " exits=" + EXITS.sum());
            }
        }));
    }

    private AppMethodBeat() {
    }

    public static void i(int methodId) {
        ENTERS.increment();
    }

    public static void o(int methodId) {
        EXITS.increment();
    }

    public static void at(android.app.Activity activity, boolean hasFocus) {
    }
}
