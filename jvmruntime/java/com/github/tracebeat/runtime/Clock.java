package com.github.tracebeat.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * Where the times of records come from.
 *
 * <p>{@code System.nanoTime()} costs tens of nanoseconds a read, and a dense
 * program makes a call every few dozen: two reads per call were most of what
 * recording cost. So by default (the shared clock) a thread reads
 * {@code nanoTime} only when the clock thread has ticked since its last read
 * (every {@link #TICK_NANOS}) or after {@link #READ_EVERY} records without a
 * read; the records in between take the time of the last read. Order is
 * never affected, since each thread appends in the order it ran.
 *
 * <p>Code that calls little (records more than {@link #SPARSE_NANOS}
 * apart on average since the last read, where a read costs a few percent
 * of the time at most) reads the clock for every record, until
 * {@link #QUICK_RUN} records in a row come quicker: between two ticks its
 * calls would otherwise all take the same time. And on a busy machine the clock
 * thread may wait for a core for many milliseconds, so each read also
 * measures how late the clock thread is: while it is late by more than
 * {@link #LATE_NANOS}, a thread reads the clock for every record. Each
 * read also measures how old the time was that the records since the last
 * one carry; the file reports the largest ({@link #worstLate()}), which is
 * how late any time may be.
 *
 * <p>{@code -Dtracebeat.clock=precise} reads {@code nanoTime} for every
 * record instead, as does a JVM where the clock thread cannot start.
 */
final class Clock {
    static final int MODE_PRECISE = 0;
    static final int MODE_SHARED = 1;

    static final long TICK_NANOS = 1000000L;
    static final int READ_EVERY = 64;
    /** A tick this much overdue means the clock thread is starved. */
    static final long LATE_NANOS = 2 * TICK_NANOS;
    /** Records further apart than this make a thread's code "calls little". */
    static final long SPARSE_NANOS = 1000L;
    /** Quick records in a row after which a thread that read for every record reads every READ_EVERY again. */
    static final int QUICK_RUN = 16;

    /** The time source's value at the start (Platform: System.nanoTime, or the boot clock on Android). */
    static final long START_NANOS = Platform.nanos();

    /** Incremented by the clock thread on every tick; threads compare it with the value they saw. */
    static volatile int tick;

    static final int MODE = start(Settings.get("tracebeat.clock"));

    /** The times of the last 1,024 ticks (nanoseconds since the start), tick k at k modulo 1,024. */
    private static final long[] TICK_TIMES = new long[1024];
    /** The clock thread's last tick, in nanoseconds since the start (written by it only). */
    private static volatile long lastTick;
    /** The oldest time any records carried when a read replaced it: how late a time may be. */
    private static volatile long worstLate;
    /** The longest time between two ticks so far (written by the clock thread only). */
    private static volatile long longestGap;

    private Clock() {
    }

    /** Nanoseconds since the recorder started, read now. */
    static long now() {
        return Platform.nanos() - START_NANOS;
    }

    /**
     * Notes a thread's read of the clock at now: words is how many records
     * it wrote since its last time mark, made at markTime (-1: none yet)
     * when it had seen tick seen; tick is the tick now. Returns how late
     * those records' time may have been (0 when they were one, or none),
     * and keeps the largest.
     */
    static long lateness(long now, long markTime, long words, int seen, int tick) {
        if (markTime < 0 || words <= 1) {
            return 0;
        }
        // The first word after a mark was made at its time; the others
        // were made before this read, and before the first tick after the
        // mark (a thread that sees a tick reads): that bounds how late
        // their time was, without the time the thread spent blocked after
        // them. A thread that missed more ticks than the table holds (it
        // slept) finds that tick gone; it came at most the longest gap
        // between two ticks after the one the thread saw, which came
        // before the mark. (Taking the oldest tick the table holds instead
        // stated a bound of seconds for a thread that slept for seconds.)
        long until = now;
        if (tick != seen) {
            if (tick - seen < TICK_TIMES.length) {
                until = Math.min(now, TICK_TIMES[(seen + 1) & (TICK_TIMES.length - 1)]);
            } else {
                until = Math.min(now, markTime + longestGap);
            }
        }
        long late = Math.max(0, until - markTime);
        if (late > worstLate) {
            worstLate = late; // racy max: a lost update loses a lateness another thread saw too
        }
        return late;
    }

    /** Whether the clock thread is late at now: a thread then reads the clock for every record. */
    static boolean behind(long now) {
        return now - lastTick > LATE_NANOS;
    }

    static long bound() {
        return worstLate();
    }

    static long worstLate() {
        return Math.max(worstLate, now() - lastTick);
    }

    private static int start(String property) {
        if (property != null && !property.trim().isEmpty()) {
            String v = property.trim();
            if (v.equals("precise")) {
                return MODE_PRECISE;
            }
            if (!v.equals("shared")) {
                System.err.println("tracebeat: tracebeat.clock=" + property + " is not precise or shared; using shared");
            }
        }
        try {
            Thread t = new Thread(new Ticker(), "tracebeat-clock");
            t.setDaemon(true);
            t.start();
            return MODE_SHARED;
        } catch (Throwable e) { // a SecurityManager, or no threads left
            System.err.println("tracebeat: no clock thread (" + e + "); reading the clock for every record");
            return MODE_PRECISE;
        }
    }

    private static final class Ticker implements Runnable {
        @Override
        public void run() {
            for (;;) {
                LockSupport.parkNanos(TICK_NANOS);
                long t = now();
                if (t - lastTick > longestGap) {
                    longestGap = t - lastTick;
                }
                int next = tick + 1; // one writer: no lost updates
                TICK_TIMES[next & (TICK_TIMES.length - 1)] = t; // before tick: a reader of tick sees it
                lastTick = t;
                tick = next;
            }
        }
    }
}
