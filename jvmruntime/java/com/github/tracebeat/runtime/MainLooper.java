package com.github.tracebeat.runtime;

import android.os.Looper;
import android.util.Printer;
import java.lang.reflect.Field;

/**
 * Matrix's LooperMonitor on tracebeat's recording (Android only): each
 * message the main looper dispatches is a section of the main thread,
 * named by its handler and callback classes ("message
 * android.app.ActivityThread$H"). The watch then sees a slow message as it
 * sees a slow call (EvilMethodTracer: {@code tracebeat.slow}, 700 ms on
 * Android; when a traced call inside it is slow, that call's report says
 * it, as the innermost), and the monitor sees a message still running
 * after {@code tracebeat.anr} (AnrTracer: 5 s), and reports it while it
 * runs.
 *
 * <p>The looper tells its Printer of each dispatch (">>>>> Dispatching to
 * ..." before, "<<<<< Finished to ..." after): the runtime sets itself as
 * that printer and passes each line on to the printer the app had set, read
 * from the looper's mLogging field where the platform allows it (as
 * Matrix does). A printer the app sets later replaces this one.
 *
 * <p>This class names framework types: it is loaded only on Android.
 */
final class MainLooper implements Printer {
    private static volatile MainLooper installed;

    private final Printer previous;
    /** The main thread's log, once a message began (set and read by it). */
    private ThreadLog log;
    /** Messages open (a message may run the looper again: a nested loop). */
    private int depth;
    /** When the outermost open message began (its section's record time), or -1. */
    private volatile long openedAt = -1;
    /** Counts the outermost messages begun; with word, what the monitor reports. */
    private volatile int seq;
    private volatile int word;
    private volatile ThreadLog openLog;
    /** The seq last reported as an ANR (the monitor's own). */
    private int reported = -1;

    private MainLooper(Printer previous) {
        this.previous = previous;
    }

    /** Sets the runtime as the main looper's printer; a line on stderr says why not. */
    static void install() {
        try {
            Looper main = Looper.getMainLooper();
            if (main == null) {
                Settings.warn("no main looper yet: messages are not watched");
                return;
            }
            MainLooper m = new MainLooper(current(main));
            main.setMessageLogging(m);
            installed = m;
        } catch (RuntimeException | LinkageError e) {
            Settings.warn("the main looper's messages are not watched (" + e + ")");
        }
    }

    /** The looper's printer, when the platform lets it be read; else null. */
    private static Printer current(Looper main) {
        try {
            Field f = Looper.class.getDeclaredField("mLogging");
            f.setAccessible(true);
            Object p = f.get(main);
            return p instanceof Printer && !(p instanceof MainLooper) ? (Printer) p : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public void println(String x) {
        if (x != null) {
            if (x.startsWith(">>>>> Dispatching")) {
                begin(x);
            } else if (x.startsWith("<<<<< Finished")) {
                if (depth > 0) {
                    end();
                } else {
                    // The message the recorder started in (it made the Application, at a cold start).
                    Startup.firstMessageEnded(Clock.now());
                }
            }
        }
        if (previous != null) {
            previous.println(x);
        }
    }

    private void begin(String line) {
        if (log == null) {
            log = ThreadLog.current();
            log.mainLooper = true;
        }
        int w = Recorder.sectionWord(messageName(line));
        log.beginSection(w);
        if (depth++ == 0) {
            word = w;
            openLog = log;
            seq++;
            openedAt = log.lastTime;
        }
    }

    private void end() {
        if (--depth == 0) {
            openedAt = -1;
        }
        log.endSection();
    }

    /**
     * The name of the message a dispatch line tells of: ">>>>> Dispatching
     * to Handler (android.app.ActivityThread$H) {5e2de80c} app.Work$1@1b6d3586: 0"
     * gives "message android.app.ActivityThread$H app.Work$1". Classes,
     * not objects: a few names in a run, each a section.
     */
    static String messageName(String line) {
        int to = line.indexOf(" to ");
        if (to < 0) {
            return "message";
        }
        String rest = line.substring(to + 4);
        String handler = rest;
        int brace = rest.indexOf(" {");
        if (brace >= 0) {
            handler = rest.substring(0, brace);
        }
        int open = handler.indexOf('(');
        int close = handler.lastIndexOf(')');
        if (open >= 0 && close > open) {
            handler = handler.substring(open + 1, close);
        }
        StringBuilder name = new StringBuilder("message ").append(handler.trim());
        int end = rest.indexOf("} ");
        if (end >= 0) {
            String callback = rest.substring(end + 2);
            int colon = callback.lastIndexOf(": ");
            if (colon >= 0) {
                callback = callback.substring(0, colon);
            }
            int at = callback.indexOf('@');
            if (at >= 0) {
                callback = callback.substring(0, at);
            }
            callback = callback.trim();
            if (!callback.isEmpty() && !callback.equals("null")) {
                name.append(' ').append(callback);
            }
        }
        return name.toString();
    }

    /**
     * The monitor's ANR watch: the main looper's message has run for
     * tracebeat.anr at now, and is reported once, while it runs.
     */
    static void lookForAnr(Watch watch, long now) {
        MainLooper m = installed;
        if (m == null) {
            return;
        }
        long at = m.openedAt;
        int s = m.seq;
        if (at >= 0 && s != m.reported && now - at >= Settings.ANR_NANOS) {
            m.reported = s;
            watch.anr(m.openLog, m.word, at, now);
        }
    }
}
