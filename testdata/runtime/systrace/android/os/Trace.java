package android.os;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Counting test stand-in for android.os.Trace (beginSection(String),
 * endSection()). Like the real class it rejects section names longer than
 * 127 characters with IllegalArgumentException.
 *
 * <p>Each thread keeps a stack of open sections; endSection() with nothing
 * open counts as unmatched. At JVM exit a shutdown hook prints one line to
 * stderr:
 *
 * <pre>tracestub: begin=N end=M unmatched=K open=U openended=E threads=T maxdepth=D</pre>
 *
 * <p>openended counts the sections left open on threads that had ended: a
 * thread still running at exit may be inside sections, an ended one not.
 *
 * <p>With -Dtracestub.log=FILE every call is written to FILE in call order:
 * "thread b name" or "thread e", thread being the thread's name with
 * whitespace replaced by '_'.
 */
public final class Trace {
    private static final int MAX_SECTION_NAME_LEN = 127;
    private static final Object LOCK = new Object();
    private static final List<int[]> THREADS = new ArrayList<>();
    private static final List<Thread> THREAD_OF = new ArrayList<>(); // THREADS' threads, same order
    private static final ThreadLocal<int[]> DEPTH = new ThreadLocal<>();
    private static final Writer LOG = openLog(System.getProperty("tracestub.log"));

    private static long begin;
    private static long end;
    private static long unmatched;
    private static int maxDepth;
    private static boolean reported;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Trace::report, "tracestub-report"));
    }

    private Trace() {
    }

    public static void beginSection(String sectionName) {
        if (sectionName.length() > MAX_SECTION_NAME_LEN) {
            throw new IllegalArgumentException("sectionName is too long");
        }
        synchronized (LOCK) {
            int[] depth = depth();
            begin++;
            depth[0]++;
            maxDepth = Math.max(maxDepth, depth[0]);
            log(threadName() + " b " + sectionName);
        }
    }

    public static void endSection() {
        synchronized (LOCK) {
            int[] depth = depth();
            end++;
            if (depth[0] == 0) {
                unmatched++;
            } else {
                depth[0]--;
            }
            log(threadName() + " e");
        }
    }

    private static int[] depth() {
        int[] depth = DEPTH.get();
        if (depth == null) {
            depth = new int[1];
            DEPTH.set(depth);
            THREADS.add(depth);
            THREAD_OF.add(Thread.currentThread());
        }
        return depth;
    }

    private static String threadName() {
        return Thread.currentThread().getName().replaceAll("\\s", "_");
    }

    private static Writer openLog(String path) {
        if (path == null || path.isEmpty()) {
            return null;
        }
        try {
            return new BufferedWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("tracestub: cannot open log " + path, e);
        }
    }

    private static void log(String line) {
        if (LOG == null) {
            return;
        }
        try {
            LOG.write(line);
            LOG.write('\n');
        } catch (IOException e) {
            throw new IllegalStateException("tracestub: cannot write log", e);
        }
    }

    private static void report() {
        synchronized (LOCK) {
            if (reported) {
                return;
            }
            reported = true;
            long open = 0;
            long openEnded = 0;
            for (int t = 0; t < THREADS.size(); t++) {
                int[] depth = THREADS.get(t);
                open += depth[0];
                if (!THREAD_OF.get(t).isAlive()) {
                    openEnded += depth[0];
                }
            }
            if (LOG != null) {
                try {
                    LOG.close();
                } catch (IOException e) {
                    System.err.println("tracestub: cannot close log: " + e);
                }
            }
            System.err.println("tracestub: begin=" + begin + " end=" + end + " unmatched=" + unmatched
                    + " open=" + open + " openended=" + openEnded + " threads=" + THREADS.size() + " maxdepth=" + maxDepth);
            System.err.flush();
        }
    }
}
