package com.github.tracebeat.runtime;

import java.lang.ref.WeakReference;

/**
 * One thread's records, written by its thread only: a ring of int slots.
 * A slot is a record's word (see {@link Recorder}), or half of a time mark:
 * the time is written only when the thread reads the clock (see
 * {@link Clock}), and the records after a mark happened at its time. So a
 * record costs one int store, and the budget holds three times the records
 * that a time per record would.
 *
 * <p>A mark is two slots whose top three bits are set, which no record word
 * has (that would be the exit of a section whose index is 2^29 or more, and
 * section indexes stay below): {@code MARK_HIGH | time >>> 28}, then
 * {@code MARK_LOW | time & 0x0FFFFFFF}. Times are nanoseconds since the
 * start, below 2^56 (more than two years).
 *
 * <p>The ring starts small and doubles while the shared budget allows;
 * after that it wraps, and the oldest slots are overwritten.
 */
final class ThreadLog {
    /** Bytes a slot takes. */
    static final int SLOT_BYTES = 4;
    static final int FIRST_CAPACITY = 1 << 10;
    static final int MAX_CAPACITY = 1 << 28;

    static final int MARK_HIGH = 0xF0000000;
    static final int MARK_LOW = 0xE0000000;
    static final int MARK_BITS = 0xE0000000;
    static final int MARK_PART = 0x10000000;
    static final int MARK_VALUE = 0x0FFFFFFF;

    final long threadId;
    final String firstName;
    final WeakReference<Thread> thread;

    /** The ring as a whole, for a reader on another thread; replaced when it grows. */
    volatile int[] ring = new int[0];
    /** Slots written since the thread started, kept or not. */
    long count;
    /** Of count, the slots that were time marks. */
    long marks;

    /**
     * The owner's copy of ring and its index mask. A thread the budget left
     * without a ring writes to a slot of its own that nobody reads.
     */
    private int[] slots = new int[1];
    private int mask;
    /** count at which a write must make room (grow, or start wrapping). */
    private long limit;
    private boolean starved;

    /** count from which the next record reads the clock again although it has not ticked. */
    private long nextRead;
    /** The smaller of limit and nextRead: below it, and with no tick, a record is one store. */
    private long check;
    /** The clock's tick this thread last read the time at, and that time. */
    private int seenTick = -1;
    private long lastTime = -1;

    /** The words of this thread's open sections, for endSection. */
    private int[] sections = new int[16];
    private int sectionDepth;

    /** A log of no thread (id -1), so that a lookup never meets null. */
    static final ThreadLog NONE = new ThreadLog();

    private ThreadLog() {
        threadId = -1;
        firstName = "";
        thread = new WeakReference<Thread>(null);
    }

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

    /**
     * Records word now. This and the methods it calls on the way to the
     * store stay under 35 bytes of bytecode, the most HotSpot's first
     * compiler inlines: most of a short program runs in that compiler's code.
     */
    void record(int word) {
        if (count >= check || Clock.tick != seenTick) {
            prepare();
        }
        put(word);
    }

    /**
     * Readies the ring for a record: reads the clock when it has ticked, or
     * the thread has written Clock.READ_EVERY slots since the last read, or
     * always with the precise clock (see {@link Clock}), marks the time
     * unless it has not moved (a thread's times never go back), and makes
     * room for one more slot.
     */
    private void prepare() {
        int tick = Clock.tick;
        if (Clock.MODE == Clock.MODE_PRECISE || tick != seenTick || count >= nextRead) {
            seenTick = tick;
            long t = Clock.now();
            if (t > lastTime) {
                lastTime = t;
                putWithRoom(MARK_HIGH | (int) (t >>> 28));
                putWithRoom(MARK_LOW | ((int) t & MARK_VALUE));
                marks += 2;
            }
            nextRead = Clock.MODE == Clock.MODE_PRECISE ? 0 : count + Clock.READ_EVERY;
        }
        if (count >= limit) {
            makeRoom();
        }
        check = Math.min(limit, nextRead);
    }

    /** Writes a slot; the caller has made room. */
    private void put(int slot) {
        long c = count;
        slots[(int) c & mask] = slot;
        count = c + 1;
    }

    /** Writes a slot, making room first if needed. */
    private void putWithRoom(int slot) {
        if (count >= limit) {
            makeRoom();
        }
        put(slot);
    }

    void beginSection(int word) {
        if (sectionDepth == sections.length) {
            int[] bigger = new int[sections.length * 2];
            System.arraycopy(sections, 0, bigger, 0, sections.length);
            sections = bigger;
        }
        sections[sectionDepth++] = word;
        record(word);
    }

    void endSection() {
        if (sectionDepth > 0) {
            record(Recorder.EXIT | sections[--sectionDepth]);
        }
    }

    /**
     * Called when the ring is full (or absent): grows it if the budget
     * allows, else lets it wrap from now on. A thread that never got a ring
     * keeps writing to its unread slot, counting what it loses.
     */
    private void makeRoom() {
        int cap = ring.length;
        if (cap == 0) {
            if (starved || !Recorder.reserve((long) FIRST_CAPACITY * SLOT_BYTES)) {
                starved = true;
                limit = Long.MAX_VALUE;
                return;
            }
            use(new int[FIRST_CAPACITY]);
            limit = FIRST_CAPACITY;
            return;
        }
        if (cap < MAX_CAPACITY && Recorder.reserve((long) cap * SLOT_BYTES)) {
            // Full but not yet wrapped: slot i holds slot i.
            int[] bigger = new int[cap * 2];
            System.arraycopy(slots, 0, bigger, 0, cap);
            use(bigger);
            limit = cap * 2L;
            return;
        }
        limit = Long.MAX_VALUE; // wrap from now on
    }

    private void use(int[] ring) {
        slots = ring;
        mask = ring.length - 1;
        this.ring = ring;
    }
}
