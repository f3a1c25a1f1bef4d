package com.github.tracebeat.runtime;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Matrix's StartupTracer on tracebeat's recording (Android): the cold start,
 * from the app's first traced call to the first Activity's first
 * {@code onWindowFocusChanged(true)} (what the injected focus call tells),
 * reported once with its phases: the process's start before the first
 * traced call ({@code Process.getStartElapsedRealtime()}, API 24, on the
 * boot clock the recording uses), the application (until the main looper
 * finished the message it was in when the recorder started: the one that
 * made the Application, {@link MainLooper}), and the first Activity (until
 * its focus). Each warm start after it (an Activity created with none of
 * the app's alive, {@link Activities}) is reported too, from the
 * Activity's creation to its first focus, as Matrix's StartupTracer
 * reports warm starts.
 */
final class Startup {
    private static final AtomicBoolean REPORTED = new AtomicBoolean();
    /** When the main looper finished the message the recorder started in (Clock.now), or -1. */
    private static volatile long applicationEnd = -1;

    private Startup() {
    }

    /** The main looper finished a message it had begun before the printer was set: the one the recorder started in. */
    static void firstMessageEnded(long at) {
        if (applicationEnd < 0) {
            applicationEnd = at;
        }
    }

    /** Whether the cold start was reported (the first focus came). */
    static boolean coldStartOver() {
        return REPORTED.get();
    }

    /** An Activity's focus changed (AppMethodBeat.at): the first focus ends the cold start, a later one may end a warm start. */
    static void focus(Object activity, boolean hasFocus) {
        if (!hasFocus || !Platform.ANDROID || activity == null) {
            return;
        }
        long created = Activities.focused(activity);
        boolean cold = !REPORTED.getAndSet(true);
        if (!cold && created < 0) {
            return;
        }
        ThreadLog log = ThreadLog.current();
        long now = Clock.now();
        // A zero-length section marks the focus on the main thread's track.
        int word = Recorder.sectionWord((cold ? "cold start " : "warm start ") + activity.getClass().getName());
        log.beginSection(word);
        log.endSection();
        Watch w = Monitor.watch();
        if (w == null) {
            return;
        }
        if (cold) {
            long app = applicationEnd;
            w.startup(log, word, app >= 0 && app <= now ? app : 0, now, processBefore());
        } else {
            w.warm(log, word, created, now);
        }
    }

    /** How long before the recorder's start the process started (ns), or 0 when unknown. */
    private static long processBefore() {
        try {
            Object ms = Class.forName("android.os.Process").getMethod("getStartElapsedRealtime").invoke(null);
            long before = Clock.START_NANOS - ((Long) ms).longValue() * 1000000L;
            return before > 0 ? before : 0;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return 0; // before API 24
        }
    }
}
