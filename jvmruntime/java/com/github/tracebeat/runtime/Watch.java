package com.github.tracebeat.runtime;

import java.util.BitSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Pattern;

/**
 * Matrix's two tracers for every JVM thread: a call that ran longer than
 * {@code tracebeat.slow} (EvilMethodTracer) and a thread stuck for longer
 * than {@code tracebeat.stall} inside a call (AnrTracer). The monitor
 * follows each thread's calls ({@link TokenSink}); this decides which to
 * report and queues them, and {@link Reports} writes them.
 *
 * <p>Of nested slow calls only the innermost is reported: its callers are
 * slow because of it, and its report shows them open around it. A stall is
 * a thread that made no record for the threshold while a call was open (a
 * lock, a wait, I/O, or a loop in code that is not traced); it is reported
 * once per call, while the thread is still there.
 */
final class Watch {
    /** A report to write. */
    static final class Due {
        int kind;
        ThreadLog log;
        int word;
        long entered;
        long end;
        /** A startup's: how long before the recording the process started (ns). */
        long before;
    }

    final MethodNames names;
    private final BitSet slowMethods;
    private final BitSet stallMethods;
    /** Reports to write: the monitor writes them, a thread that found its call slow may queue one. */
    final ConcurrentLinkedQueue<Due> due = new ConcurrentLinkedQueue<Due>();

    Watch(MethodNames names) {
        this.names = names;
        slowMethods = names.matching(Settings.SLOW_METHODS, "tracebeat.slow.methods");
        stallMethods = names.matching(Settings.STALL_METHODS, "tracebeat.stall.methods");
    }

    /**
     * A call of word that ran from entered to exited, longer than the
     * threshold, with no reported call inside it: queues its report when
     * the thread and the method are watched. True when queued (the caller
     * marks it, so that its callers are not reported for it).
     */
    boolean slow(ThreadLog log, int word, long entered, long exited) {
        if (!method(slowMethods, word) || !thread(Settings.SLOW_THREADS, log) || Settings.SLOW_MAIN_ONLY && !log.mainLooper) {
            return false;
        }
        add(TraceFile.REPORT_SLOW, log, word, entered, exited, 0);
        return true;
    }

    /**
     * Whether a thread has stalled at now: it made no record since
     * lastTime, inside its innermost open call (words[depth - 1], entered
     * at enter), both longer than the threshold ago; then queues the
     * report (the caller marks the call, reported once) and says true. With
     * a method pattern, any of the open calls words[0..depth) may match.
     */
    boolean stall(ThreadLog log, long now, long lastTime, int[] words, int depth, long enter) {
        if (Settings.STALL_NANOS <= 0 || depth <= 0 || lastTime < 0 || now - lastTime < Settings.STALL_NANOS
            || now - enter < Settings.STALL_NANOS) {
            return false;
        }
        boolean matched = stallMethods == null;
        for (int i = 0; i < depth && !matched; i++) {
            matched = method(stallMethods, words[i]);
        }
        if (!matched || !thread(Settings.STALL_THREADS, log)) {
            return false;
        }
        add(TraceFile.REPORT_STALL, log, words[depth - 1], enter, now, 0);
        return true;
    }

    /**
     * The main looper's message (a section, word) begun at entered has run
     * past tracebeat.anr at now: queues its report (Android's AnrTracer).
     */
    void anr(ThreadLog log, int word, long entered, long now) {
        add(TraceFile.REPORT_ANR, log, word, entered, now, 0);
    }

    /**
     * The cold start ended at now with the first Activity's focus (word, a
     * section naming it); the application ended at appEnd (0: unknown),
     * the process started before ns before the recording.
     */
    void startup(ThreadLog log, int word, long appEnd, long now, long before) {
        add(TraceFile.REPORT_STARTUP, log, word, appEnd, now, before);
    }

    /** A warm start: an Activity (word, a section naming it) created at created, focused at now. */
    void warm(ThreadLog log, int word, long created, long now) {
        add(TraceFile.REPORT_WARM, log, word, created, now, 0);
    }

    private void add(int kind, ThreadLog log, int word, long entered, long end, long before) {
        Due d = new Due();
        d.before = before;
        d.kind = kind;
        d.log = log;
        d.word = word;
        d.entered = entered;
        d.end = end;
        due.add(d);
    }

    private static boolean method(BitSet ids, int word) {
        return ids == null || (word & Recorder.SECTION) == 0 && ids.get(word & Recorder.ID_MASK);
    }

    private static boolean thread(Pattern p, ThreadLog log) {
        return p == null || p.matcher(log.name()).find();
    }
}
