package com.tencent.matrix.trace.core;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;

/**
 * Test stand-in for Matrix's runtime: records i()/o() of the main thread as
 * Matrix's 64-bit records (bit 63 = enter, bits 43..62 = method id,
 * bits 0..42 = milliseconds since this class was initialized) and writes
 * them big-endian at exit to the file named by the system property
 * "tracebeat.beat.out" or the environment variable TRACEBEAT_BEAT_OUT.
 *
 * With "tracebeat.beat.capacity" (or TRACEBEAT_BEAT_CAPACITY) set, the
 * buffer is a ring of that many records, as on a device: the oldest records
 * are overwritten and the file holds the newest ones, oldest first.
 */
public final class AppMethodBeat {
    /** Ids at or above this are ignored, as in Matrix (20 bits). */
    public static final int METHOD_ID_MAX = 0xFFFFF;
    public static final int METHOD_ID_DISPATCH = METHOD_ID_MAX - 1;

    private static final long START_NANOS = System.nanoTime();
    private static final Thread MAIN = findMainThread();
    private static final int CAPACITY = capacity();

    private static long[] buffer = new long[CAPACITY > 0 ? CAPACITY : 1 << 12];
    private static int next;        // index of the next write
    private static long written;    // records written in total

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(AppMethodBeat::dump, "AppMethodBeat-dump"));
    }

    private AppMethodBeat() {}

    public static void i(int methodId) {
        record(true, methodId);
    }

    public static void o(int methodId) {
        record(false, methodId);
    }

    /** Called from Activity.onWindowFocusChanged; a stub has nothing to report. */
    public static void at(android.app.Activity activity, boolean hasFocus) {}

    private static void record(boolean enter, int methodId) {
        if (methodId < 0 || methodId >= METHOD_ID_MAX || Thread.currentThread() != MAIN) {
            return;
        }
        long ms = (System.nanoTime() - START_NANOS) / 1_000_000L;
        long rec = ((long) methodId << 43) | (ms & 0x7FFFFFFFFFFL);
        if (enter) {
            rec |= 1L << 63;
        }
        synchronized (AppMethodBeat.class) {
            if (next == buffer.length) {
                if (CAPACITY > 0) {
                    next = 0;
                } else {
                    buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
                }
            }
            buffer[next++] = rec;
            written++;
        }
    }

    private static Thread findMainThread() {
        Thread t = Thread.currentThread();
        if ("main".equals(t.getName())) {
            return t;
        }
        for (Thread candidate : Thread.getAllStackTraces().keySet()) {
            if ("main".equals(candidate.getName())) {
                return candidate;
            }
        }
        return t;
    }

    private static String setting(String property, String env) {
        String v = System.getProperty(property);
        return v != null ? v : System.getenv(env);
    }

    private static int capacity() {
        String v = setting("tracebeat.beat.capacity", "TRACEBEAT_BEAT_CAPACITY");
        return v == null ? 0 : Integer.parseInt(v.trim());
    }

    private static synchronized void dump() {
        String path = setting("tracebeat.beat.out", "TRACEBEAT_BEAT_OUT");
        if (path == null) {
            return;
        }
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(path)))) {
            if (CAPACITY > 0 && written > CAPACITY) {
                for (int k = 0; k < CAPACITY; k++) {
                    out.writeLong(buffer[(next + k) % CAPACITY]);
                }
            } else {
                for (int k = 0; k < next; k++) {
                    out.writeLong(buffer[k]);
                }
            }
        } catch (IOException e) {
            System.err.println("AppMethodBeat: cannot write " + path + ": " + e);
        }
    }
}
