package android.os;

/** Compile-time stand-in for the framework's class; not in the jar. */
public final class Process {
    private Process() {
    }

    public static int myTid() {
        return 0;
    }
}
