package com.github.tracebeat.runtime;

import java.io.File;
import java.io.IOException;
import java.util.Locale;

/**
 * Writes the watch's reports, each a recording of its own beside the
 * trace ({@code app.trace} gives {@code app-slow-1.trace},
 * {@code app-stall-1.trace}), with one line on stderr that names the
 * method, the thread and the time. They are bounded: at most
 * {@link Settings#REPORTS} a run, {@link Settings#REPORTS_SIZE} bytes in
 * all, one of a kind a second on a thread (by the times of what they
 * report, not when the monitor writes them: a clock that jumps, as
 * Robolectric's does, or a monitor that is late, changes nothing); a
 * report refused still gets its line, which says why.
 */
final class Reports {
    static final long EVERY_NANOS = 1000000000L;

    private final Watch watch;
    private int written;
    private long bytes;
    /** When what each thread's last report of each kind was about ended (Clock time), by thread id and kind. */
    private final java.util.HashMap<String, Long> lastAt = new java.util.HashMap<String, Long>();
    /** Reports written so far, by kind (their files' numbers). */
    private final int[] made = new int[KINDS.length];
    /** The kinds' names in the files' names, by kind number (TraceFile.REPORT_*). */
    private static final String[] KINDS = {null, "slow", "stall", "anr", "startup", "warm"};

    Reports(Watch watch) {
        this.watch = watch;
    }

    /** Writes d now (through writer), or says why not. */
    void write(Watch.Due d, Monitor.ReportWriter writer) {
        String key = d.log.threadId + "/" + d.kind;
        String what = describe(d);
        String refused = null;
        if (written >= Settings.REPORTS) {
            refused = "the limit of " + Settings.REPORTS + " reports a run is reached (-Dtracebeat.reports)";
        } else if (bytes >= Settings.REPORTS_SIZE) {
            refused = "the reports' size limit is reached (-Dtracebeat.reports.size)";
        } else if (lastAt.containsKey(key) && d.end - lastAt.get(key) < EVERY_NANOS) {
            refused = "at most one report of a kind a second on a thread";
        }
        if (refused != null) {
            Settings.warn(what + " (no report: " + refused + ")");
            return;
        }
        String path = beside(KINDS[d.kind], ++made[d.kind]);
        long threshold = d.kind == TraceFile.REPORT_SLOW ? Settings.SLOW_NANOS
            : d.kind == TraceFile.REPORT_STALL ? Settings.STALL_NANOS
            : d.kind == TraceFile.REPORT_ANR ? Settings.ANR_NANOS
            : d.before; // a startup's: how long before the recording the process started; a warm start's: 0
        TraceFile.Report r = new TraceFile.Report();
        r.kind = d.kind;
        r.tid = d.log.tid;
        r.thread = d.log.name();
        r.word = d.word;
        r.entered = d.entered;
        r.end = d.end;
        r.threshold = threshold;
        r.from = d.kind == TraceFile.REPORT_STARTUP ? 0 : d.entered;
        r.to = d.end;
        try {
            bytes += writer.write(path, r);
            written++;
            lastAt.put(key, d.end);
            Settings.warn(what + " (report: " + path + ")");
        } catch (IOException | RuntimeException e) {
            Settings.warn(what + " (no report: " + e.getMessage() + ")");
        }
    }

    private String describe(Watch.Due d) {
        String ms = ms(d.end - d.entered);
        String thread = "thread \"" + d.log.name() + "\" (tid " + d.log.tid + ")";
        if (d.kind == TraceFile.REPORT_SLOW) {
            return "slow call: " + watch.names.name(d.word) + " took " + ms + " on " + thread;
        }
        if (d.kind == TraceFile.REPORT_STARTUP) {
            String activity = watch.names.name(d.word).substring("cold start ".length());
            return "cold start: " + ms(d.end) + " from the first traced call to the first focus of " + activity
                + " (the application " + (d.entered > 0 ? ms(d.entered) : "unknown") + ", the process started "
                + (d.before > 0 ? ms(d.before) : "an unknown time") + " before the first call)";
        }
        if (d.kind == TraceFile.REPORT_WARM) {
            String activity = watch.names.name(d.word).substring("warm start ".length());
            return "warm start: " + ms + " from the creation of " + activity + " to its first focus";
        }
        if (d.kind == TraceFile.REPORT_ANR) {
            return "ANR: the main looper's " + watch.names.name(d.word) + " has run for " + ms + " so far on " + thread;
        }
        return "stall: " + thread + " is stuck in " + watch.names.name(d.word) + " for " + ms + " so far";
    }

    /** ns as decode shows it: whole microseconds, not rounded. */
    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%d.%03d ms", ns / 1000000, ns / 1000 % 1000);
    }

    /**
     * A file beside the trace named for what it holds: app.trace gives
     * app-KIND-N.trace; without a trace, tracebeat-PID-KIND-N.trace in the
     * program's working folder.
     */
    static String beside(String kind, int n) {
        String trace = Settings.trace();
        if (trace == null) {
            return new File("tracebeat-" + TraceFile.pid() + "-" + kind + "-" + n + ".trace").getAbsolutePath();
        }
        File f = new File(trace).getAbsoluteFile();
        String name = f.getName();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : ".trace";
        return new File(f.getParentFile(), stem + "-" + kind + "-" + n + ext).getPath();
    }
}
