package com.tencent.matrix.trace.core;

import android.app.Activity;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counting test stand-in for Matrix's AppMethodBeat (same class name and
 * static signatures i(I)V, o(I)V, at(Landroid/app/Activity;Z)V) that checks
 * how an instrumented program calls it.
 *
 * <p>Each thread keeps a stack of the ids passed to i(id). o(id) must close
 * the id on top; otherwise it counts as mismatched, and if the id is deeper
 * in the stack everything above it is dropped so one mistake is counted
 * once. At JVM exit a shutdown hook prints one line to stderr:
 *
 * <pre>beatstub: enter=N exit=M mismatched=K open=U openended=E threads=T focus=F maxdepth=D focusby=cls:n,cls:n</pre>
 *
 * <p>open is the number of ids still on any stack, openended those of them
 * on threads that had ended (a thread still running at exit, such as a
 * pool's worker parked in its loop, is inside its methods; an ended one
 * left them all), threads the number of
 * threads that called i or o, focusby the at() calls per activity class.
 * With -Dbeatstub.log=FILE every call is also written to FILE in call order,
 * one line each: "thread i id", "thread o id" or "thread at class bool",
 * where thread is the thread's name with whitespace replaced by '_'.
 *
 * <p>All state is guarded by one lock, so counts and log order agree.
 */
public final class AppMethodBeat {
    private static final Object LOCK = new Object();
    private static final List<ThreadStack> THREADS = new ArrayList<>();
    private static final ThreadLocal<ThreadStack> CURRENT = new ThreadLocal<>();
    private static final Map<String, Integer> FOCUS_BY_CLASS = new TreeMap<>();
    private static final Writer LOG = openLog(System.getProperty("beatstub.log"));

    private static long enter;
    private static long exit;
    private static long mismatched;
    private static long focus;
    private static int maxDepth;
    private static boolean reported;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(AppMethodBeat::report, "beatstub-report"));
    }

    private AppMethodBeat() {
    }

    private static final class ThreadStack {
        final String name;
        final Thread thread;
        int[] ids = new int[32];
        int depth;

        ThreadStack(String name, Thread thread) {
            this.name = name;
            this.thread = thread;
        }

        void push(int id) {
            if (depth == ids.length) {
                ids = Arrays.copyOf(ids, depth * 2);
            }
            ids[depth++] = id;
        }

        /** Pops id; returns false when id was not on top. */
        boolean pop(int id) {
            if (depth > 0 && ids[depth - 1] == id) {
                depth--;
                return true;
            }
            for (int i = depth - 2; i >= 0; i--) {
                if (ids[i] == id) {
                    depth = i;
                    break;
                }
            }
            return false;
        }
    }

    public static void i(int methodId) {
        synchronized (LOCK) {
            ThreadStack stack = current();
            enter++;
            stack.push(methodId);
            maxDepth = Math.max(maxDepth, stack.depth);
            log(stack.name + " i " + methodId);
        }
    }

    public static void o(int methodId) {
        synchronized (LOCK) {
            ThreadStack stack = current();
            exit++;
            if (!stack.pop(methodId)) {
                mismatched++;
            }
            log(stack.name + " o " + methodId);
        }
    }

    public static void at(Activity activity, boolean isFocus) {
        synchronized (LOCK) {
            String cls = activity == null ? "null" : activity.getClass().getName();
            focus++;
            FOCUS_BY_CLASS.merge(cls, 1, Integer::sum);
            log(threadName() + " at " + cls + " " + isFocus);
        }
    }

    private static ThreadStack current() {
        ThreadStack stack = CURRENT.get();
        if (stack == null) {
            stack = new ThreadStack(threadName(), Thread.currentThread());
            CURRENT.set(stack);
            THREADS.add(stack);
        }
        return stack;
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
            throw new IllegalStateException("beatstub: cannot open log " + path, e);
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
            throw new IllegalStateException("beatstub: cannot write log", e);
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
            for (ThreadStack stack : THREADS) {
                open += stack.depth;
                if (!stack.thread.isAlive()) {
                    openEnded += stack.depth;
                }
            }
            StringBuilder focusBy = new StringBuilder();
            for (Map.Entry<String, Integer> e : FOCUS_BY_CLASS.entrySet()) {
                if (focusBy.length() > 0) {
                    focusBy.append(',');
                }
                focusBy.append(e.getKey()).append(':').append(e.getValue());
            }
            if (LOG != null) {
                try {
                    LOG.close();
                } catch (IOException e) {
                    System.err.println("beatstub: cannot close log: " + e);
                }
            }
            System.err.println("beatstub: enter=" + enter + " exit=" + exit + " mismatched=" + mismatched
                    + " open=" + open + " openended=" + openEnded + " threads=" + THREADS.size() + " focus=" + focus
                    + " maxdepth=" + maxDepth + " focusby=" + focusBy);
            System.err.flush();
        }
    }
}
