package com.github.tracebeat.runtime;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Matrix's two tracers for every JVM thread: a call that ran longer than
 * {@code tracebeat.slow} (EvilMethodTracer) and a thread stuck for longer
 * than {@code tracebeat.stall} inside a call (AnrTracer). The monitor
 * follows each thread's calls ({@link Follower}); this decides which to
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
    }

    final MethodNames names;
    private final BitSet slowMethods;
    private final BitSet stallMethods;
    final List<Due> due = new ArrayList<Due>();

    Watch(MethodNames names) {
        this.names = names;
        slowMethods = names.matching(Settings.SLOW_METHODS, "tracebeat.slow.methods");
        stallMethods = names.matching(Settings.STALL_METHODS, "tracebeat.stall.methods");
    }

    /** The call at index i of f's stack returns at t. */
    void returned(Follower f, int i, long t) {
        CallStack s = f.stack;
        if (Settings.SLOW_NANOS <= 0 || t - s.enters[i] < Settings.SLOW_NANOS
            || (s.flags[i] & (CallStack.REPORTED | CallStack.INNER_REPORTED)) != 0) {
            return;
        }
        int word = s.words[i];
        if (!method(slowMethods, word) || !thread(Settings.SLOW_THREADS, f.log)) {
            return;
        }
        s.flags[i] |= CallStack.REPORTED;
        add(TraceFile.REPORT_SLOW, f.log, word, s.enters[i], t);
    }

    /** Looks for a stall in f at now. */
    void stall(Follower f, long now) {
        CallStack s = f.stack;
        int top = s.depth - 1;
        if (Settings.STALL_NANOS <= 0 || top < 0 || f.lastTime < 0 || now - f.lastTime < Settings.STALL_NANOS
            || now - s.enters[top] < Settings.STALL_NANOS || (s.flags[top] & CallStack.STALL_REPORTED) != 0) {
            return;
        }
        boolean matched = stallMethods == null;
        for (int i = 0; i <= top && !matched; i++) {
            matched = method(stallMethods, s.words[i]);
        }
        if (!matched || !thread(Settings.STALL_THREADS, f.log)) {
            return;
        }
        s.flags[top] |= CallStack.STALL_REPORTED;
        add(TraceFile.REPORT_STALL, f.log, s.words[top], s.enters[top], now);
    }

    private void add(int kind, ThreadLog log, int word, long entered, long end) {
        Due d = new Due();
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
