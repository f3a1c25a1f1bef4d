package com.github.tracebeat.runtime;

/**
 * What differs on Android, found once by looking the framework's classes
 * up: the runtime is one jar for both, not two copies of the recorder.
 *
 * <p>On Android times come from {@code SystemClock.elapsedRealtimeNanos()}
 * (CLOCK_BOOTTIME, Perfetto's default clock), so that a recording's times
 * line up with a system trace, and a thread is named by its Linux tid
 * ({@code android.os.Process.myTid()}), the one Perfetto shows. Elsewhere,
 * {@code System.nanoTime()} and the Java thread id.
 *
 * <p>The framework is called directly: a JVM resolves a call only when it
 * runs it, and off Android these calls never run. (Not through
 * java.lang.invoke, which Android has from 8.0 only.)
 */
final class Platform {
    private Platform() {
    }

    /** Whether this is Android (its boot clock is there). */
    static final boolean ANDROID = has("android.os.SystemClock", "elapsedRealtimeNanos");

    /**
     * Whether java.nio.file is there (every JVM; Android from 8.0): else
     * files are moved and folders made with java.io alone ({@link NioFiles}).
     */
    static final boolean NIO_FILES = has("java.nio.file.Files", null);

    /** The time source, as the header records it: 0 System.nanoTime(), 1 SystemClock.elapsedRealtimeNanos(). */
    static final int TIME_SOURCE = ANDROID ? 1 : 0;

    private static boolean has(String cls, String method) {
        try {
            Class<?> c = Class.forName(cls);
            if (method != null) {
                c.getMethod(method);
            }
            return true;
        } catch (ClassNotFoundException | NoSuchMethodException | LinkageError | SecurityException e) {
            return false;
        }
    }

    /** Now, in the time source's nanoseconds. */
    static long nanos() {
        return ANDROID ? android.os.SystemClock.elapsedRealtimeNanos() : System.nanoTime();
    }

    /** The calling thread's id as the recording names it: its Linux tid on Android, else t's Java id. */
    static long tidOfCurrent(Thread t) {
        return ANDROID ? android.os.Process.myTid() : t.getId();
    }
}
