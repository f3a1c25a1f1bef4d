package android.os;

import com.github.tracebeat.runtime.Recorder;

/**
 * A JVM stand-in for Android's android.os.Trace, for code instrumented with
 * {@code --mode systrace}: sections are recorded by {@link Recorder} like
 * AppMethodBeat's calls. A section named by a number (what tracebeat
 * injects) is that method id; any other name is kept as text.
 */
public final class Trace {
    private Trace() {
    }

    public static void beginSection(String sectionName) {
        Recorder.beginSection(sectionName);
    }

    public static void endSection() {
        Recorder.endSection();
    }

    /** Always true: the recorder is on whenever this class is loaded. */
    public static boolean isEnabled() {
        return true;
    }
}
