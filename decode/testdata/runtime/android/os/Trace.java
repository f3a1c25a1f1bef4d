package android.os;

import java.io.FileWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * Test stand-in for android.os.Trace: beginSection/endSection append what
 * the real one writes to trace_marker ("B|pid|name", "E|pid"), prefixed
 * with a timestamp and the thread, one line each:
 *
 *   <seconds>.<micros> <thread>-<tid> B|<pid>|<name>
 *
 * (the raw trace_marker dump form `tracebeat decode` reads). Lines are kept
 * in memory and written at exit to the file named by the system property
 * "tracebeat.trace.out" or the environment variable TRACEBEAT_TRACE_OUT.
 */
public final class Trace {
    private static final int MAX_SECTION_NAME_LEN = 127;
    private static final long START_NANOS = System.nanoTime();
    private static final long PID = ProcessHandle.current().pid();
    private static final StringBuilder LINES = new StringBuilder();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Trace::dump, "Trace-dump"));
    }

    private Trace() {}

    public static void beginSection(String sectionName) {
        if (sectionName.length() > MAX_SECTION_NAME_LEN) {
            throw new IllegalArgumentException("sectionName is too long");
        }
        append("B|" + PID + "|" + sectionName);
    }

    public static void endSection() {
        append("E|" + PID);
    }

    private static void append(String payload) {
        long micros = (System.nanoTime() - START_NANOS) / 1_000L;
        Thread t = Thread.currentThread();
        String thread = t.getName().replaceAll("\\s", "_");
        String line = String.format("%d.%06d %s-%d %s%n", micros / 1_000_000L, micros % 1_000_000L, thread, t.getId(), payload);
        synchronized (LINES) {
            LINES.append(line);
        }
    }

    private static void dump() {
        String path = System.getProperty("tracebeat.trace.out");
        if (path == null) {
            path = System.getenv("TRACEBEAT_TRACE_OUT");
        }
        if (path == null) {
            return;
        }
        try (Writer w = new FileWriter(path)) {
            synchronized (LINES) {
                w.write(LINES.toString());
            }
        } catch (IOException e) {
            System.err.println("Trace: cannot write " + path + ": " + e);
        }
    }
}
