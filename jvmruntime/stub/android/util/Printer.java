package android.util;

/** Compile-time stand-in for the framework's interface; not in the jar. */
public interface Printer {
    void println(String x);
}
