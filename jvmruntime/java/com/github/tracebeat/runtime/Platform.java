package com.github.tracebeat.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * What differs on Android, found once by looking the framework's classes
 * up: the runtime is one jar for both, not two copies of the recorder.
 *
 * <p>On Android times come from {@code SystemClock.elapsedRealtimeNanos()}
 * (CLOCK_BOOTTIME, Perfetto's default clock), so that a recording's times
 * line up with a system trace, and a thread is named by its Linux tid
 * ({@code android.os.Process.myTid()}), the one Perfetto shows. Elsewhere,
 * {@code System.nanoTime()} and the Java thread id.
 */
final class Platform {
    private Platform() {
    }

    /** SystemClock.elapsedRealtimeNanos, or null off Android. */
    private static final MethodHandle BOOT_NANOS = find("android.os.SystemClock", "elapsedRealtimeNanos", long.class);
    /** Process.myTid, or null off Android. */
    private static final MethodHandle MY_TID = find("android.os.Process", "myTid", int.class);

    /** Whether this is Android (its clock was found). */
    static final boolean ANDROID = BOOT_NANOS != null;

    /** The time source, as the header records it: 0 System.nanoTime(), 1 SystemClock.elapsedRealtimeNanos(). */
    static final int TIME_SOURCE = BOOT_NANOS != null ? 1 : 0;

    private static MethodHandle find(String cls, String method, Class<?> returns) {
        try {
            return MethodHandles.publicLookup().findStatic(Class.forName(cls), method, MethodType.methodType(returns));
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException | LinkageError e) {
            return null;
        }
    }

    /** Now, in the time source's nanoseconds. */
    static long nanos() {
        if (BOOT_NANOS != null) {
            try {
                return (long) BOOT_NANOS.invokeExact();
            } catch (Throwable e) {
                // The framework's clock cannot fail; fall through.
            }
        }
        return System.nanoTime();
    }

    /** The calling thread's id as the recording names it: its Linux tid on Android, else t's Java id. */
    static long tidOfCurrent(Thread t) {
        if (MY_TID != null) {
            try {
                return (int) MY_TID.invokeExact();
            } catch (Throwable e) {
                // fall through to the Java id
            }
        }
        return t.getId();
    }
}
