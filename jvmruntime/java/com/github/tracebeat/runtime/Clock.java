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
 * read; the records in between take the time of the last read. Such a time
 * is late by less than the longest gap between two ticks, which the clock
 * thread measures and the file reports ({@link #longestGap()}); order is
 * never affected, since each thread appends in the order it ran.
 *
 * <p>{@code -Dtracebeat.clock=precise} reads {@code nanoTime} for every
 * record instead, as does a JVM where the clock thread cannot start.
 */
final class Clock {
    static final int MODE_PRECISE = 0;
    static final int MODE_SHARED = 1;

    static final long TICK_NANOS = 1000000L;
    static final int READ_EVERY = 64;

    static final long START_NANOS = System.nanoTime();

    /** Incremented by the clock thread on every tick; threads compare it with the value they saw. */
    static volatile int tick;

    static final int MODE = start(System.getProperty("tracebeat.clock"));

    /** Written by the clock thread only: the longest gap between ticks, and the last tick's nanoTime. */
    private static volatile long longestGap;
    private static volatile long lastTick = START_NANOS;

    private Clock() {
    }

    /** Nanoseconds since the recorder started, read now. */
    static long now() {
        return System.nanoTime() - START_NANOS;
    }

    /**
     * The longest time between two ticks so far, the time since the last one
     * included (records made since then wait for the next), in nanoseconds.
     */
    static long longestGap() {
        return Math.max(longestGap, System.nanoTime() - lastTick);
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
                long t = System.nanoTime();
                if (t - lastTick > longestGap) {
                    longestGap = t - lastTick;
                }
                lastTick = t;
                tick++; // one writer: no lost updates
            }
        }
    }
}
