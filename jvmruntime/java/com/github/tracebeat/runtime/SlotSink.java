package com.github.tracebeat.runtime;

/** What a {@link Cursor} gives the slots it takes to. */
interface SlotSink {
    /** Slots b[from..to) of the thread, in order, after those given before. */
    void slots(int[] b, int from, int to);

    /** n slots went before they were taken (overwritten): what follows starts afresh. */
    void lost(long n);

    /** The thread ended, and everything it wrote was given. */
    void ended();

    /** The thread wrote nothing since the last look. */
    void quiet();

    /** Looks for a stall at now (see {@link Watch#stall}). */
    void lookForStall(Watch watch, long now);
}
