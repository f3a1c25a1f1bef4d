package android.app;

/**
 * Compile-time stand-in only: AppMethodBeat.at names this type. It is not
 * part of the runtime jar (on Android the platform provides it; on a plain
 * JVM no Activity exists and at() is never called).
 */
public class Activity {
    public final Application getApplication() {
        return null;
    }
}
