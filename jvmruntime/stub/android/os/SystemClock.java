package android.os;

/** Compile-time stand-in for the framework's class; not in the jar. */
public final class SystemClock {
    private SystemClock() {
    }

    public static long elapsedRealtimeNanos() {
        return 0;
    }
}
