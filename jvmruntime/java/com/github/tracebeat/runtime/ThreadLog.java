package com.github.tracebeat.runtime;

import java.lang.ref.WeakReference;

/**
 * One thread's records: a ring of (time, word) pairs, written by its thread
 * only. It starts small and doubles while the shared budget allows; after
 * that it wraps, and the oldest records are overwritten.
 */
final class ThreadLog {
    /** Bytes one record takes: a long time and an int word. */
    static final int RECORD_BYTES = 12;
    static final int FIRST_CAPACITY = 1 << 10;
    static final int MAX_CAPACITY = 1 << 28;

    final long threadId;
    final String firstName;
    final WeakReference<Thread> thread;

    /** Replaced as a whole when the ring grows, so a reader never mixes two. */
    volatile Ring ring = Ring.EMPTY;
    /** Records written since the thread started, kept or not. */
    long count;
    /** count at which add must make room (grow, or start wrapping). */
    private long limit;
    private boolean starved;

    /** The words of this thread's open sections, for endSection. */
    private int[] sections = new int[16];
    private int sectionDepth;

    ThreadLog(Thread t) {
        threadId = t.getId();
        firstName = t.getName();
        thread = new WeakReference<Thread>(t);
    }

    /** The thread's name now, or the one it had when it first recorded. */
    String name() {
        Thread t = thread.get();
        return t != null ? t.getName() : firstName;
    }

    void add(int word, long time) {
        long c = count;
        Ring r = ring;
        if (c >= limit) {
            r = makeRoom(c);
            if (r == null) {
                count = c + 1; // no buffer at all: the record is lost
                return;
            }
        }
        int i = (int) c & r.mask;
        r.times[i] = time;
        r.words[i] = word;
        count = c + 1;
    }

    void beginSection(int word, long time) {
        if (sectionDepth == sections.length) {
            int[] bigger = new int[sections.length * 2];
            System.arraycopy(sections, 0, bigger, 0, sections.length);
            sections = bigger;
        }
        sections[sectionDepth++] = word;
        add(word, time);
    }

    void endSection(long time) {
        if (sectionDepth > 0) {
            add(Recorder.EXIT | sections[--sectionDepth], time);
        }
    }

    /**
     * Called when the ring is full (or absent): grows it if the budget
     * allows, else lets it wrap from now on. Returns the ring to write to,
     * or null when this thread got no buffer at all.
     */
    private Ring makeRoom(long c) {
        Ring r = ring;
        int cap = r.words.length;
        if (cap == 0) {
            if (starved || !Recorder.reserve((long) FIRST_CAPACITY * RECORD_BYTES)) {
                starved = true;
                return null;
            }
            r = new Ring(FIRST_CAPACITY);
            ring = r;
            limit = FIRST_CAPACITY;
            return r;
        }
        if (cap < MAX_CAPACITY && Recorder.reserve((long) cap * RECORD_BYTES)) {
            // Full but not yet wrapped: slot i holds record i.
            Ring bigger = new Ring(cap * 2);
            System.arraycopy(r.times, 0, bigger.times, 0, cap);
            System.arraycopy(r.words, 0, bigger.words, 0, cap);
            ring = bigger;
            limit = cap * 2L;
            return bigger;
        }
        limit = Long.MAX_VALUE; // wrap from now on
        return r;
    }

    static final class Ring {
        static final Ring EMPTY = new Ring(0);

        final long[] times;
        final int[] words;
        final int mask;

        Ring(int capacity) {
            times = new long[capacity];
            words = new int[capacity];
            mask = capacity - 1;
        }
    }
}
