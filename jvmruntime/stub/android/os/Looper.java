package android.os;

/** Compile-time stand-in for the framework's class; not in the jar. */
public final class Looper {
    private Looper() {
    }

    public static Looper getMainLooper() {
        throw new UnsupportedOperationException("stub");
    }

    public Thread getThread() {
        throw new UnsupportedOperationException("stub");
    }

    public void setMessageLogging(android.util.Printer printer) {
        throw new UnsupportedOperationException("stub");
    }
}
