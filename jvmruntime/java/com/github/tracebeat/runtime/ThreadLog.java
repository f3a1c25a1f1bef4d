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
    private static final ThreadLog NONE = new ThreadLog();

    private static final ThreadLocal<ThreadLog> LOG = new ThreadLocal<ThreadLog>() {
        @Override
        protected ThreadLog initialValue() {
            ThreadLog log = new ThreadLog(Thread.currentThread());
            Recorder.LOGS.add(log);
            return log;
        }
    };

    /**
     * Each thread's log by thread id modulo its size, read before the
     * ThreadLocal, which costs several times more on a path taken twice per
     * call. A slot holds the log of the last thread with its id modulo 1024
     * that recorded; ids are never reused, so the id check is exact, and two
     * live threads that share a slot only fall back to the ThreadLocal.
     */
    private static final ThreadLog[] BY_ID = new ThreadLog[1024];

    static {
        java.util.Arrays.fill(BY_ID, NONE);
    }

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

    /** The calling thread's log. */
    static ThreadLog current() {
        long id = Thread.currentThread().getId();
        ThreadLog log = BY_ID[(int) id & (BY_ID.length - 1)];
        if (log.threadId != id) {
            log = LOG.get();
            BY_ID[(int) id & (BY_ID.length - 1)] = log; // racy by design: a reader checks the id, a final field
        }
        return log;
    }

    /** The thread's name now, or the one it had when it first recorded. */
    String name() {
        Thread t = thread.get();
        return t != null ? t.getName() : firstName;
    }

    /**
     * Records word now, in the calling thread's log. It first readies the
     * ring when it must: reads the clock when it has ticked, or the thread
     * has written Clock.READ_EVERY slots since its last read, or always with
     * the precise clock (see {@link Clock}); marks the time unless it has
     * not moved (a thread's times never go back); makes room for the slots.
     *
     * <p>One method, the lookup and the ring's growth included, on purpose:
     * at over 325 bytes of bytecode (HotSpot's FreqInlineSize) the JIT calls
     * it instead of inlining it into every traced method twice, and the
     * compiler threads, which took more CPU than ProGuard's own thread in a
     * recorded run (perf, two cores), have less to compile. README, "What
     * recording costs", has the figures.
     */
    static void record(int word) {
        ThreadLog log = current();
        if (log.count >= log.check || Clock.tick != log.seenTick) {
            int tick = Clock.tick;
            boolean read = Clock.MODE == Clock.MODE_PRECISE || tick != log.seenTick || log.count >= log.nextRead;
            long t = -1; // the time to mark, if any
            if (read) {
                log.seenTick = tick;
                long now = Clock.now();
                if (now > log.lastTime) {
                    log.lastTime = now;
                    t = now;
                }
            }
            // Room for the mark's two slots and the word's: grow the ring
            // while the budget allows (not yet wrapped: slot i holds slot
            // i), else wrap from now on; a thread that never got a ring
            // writes to its unread slot, counting what it loses.
            long need = log.count + (t >= 0 ? 3 : 1);
            while (need > log.limit) {
                int cap = log.ring.length;
                if (cap == 0) {
                    if (log.starved || !Recorder.reserve((long) FIRST_CAPACITY * SLOT_BYTES)) {
                        log.starved = true;
                        log.limit = Long.MAX_VALUE;
                    } else {
                        log.use(new int[FIRST_CAPACITY]);
                        log.limit = FIRST_CAPACITY;
                    }
                } else if (cap < MAX_CAPACITY && Recorder.reserve((long) cap * SLOT_BYTES)) {
                    int[] bigger = new int[cap * 2];
                    System.arraycopy(log.slots, 0, bigger, 0, cap);
                    log.use(bigger);
                    log.limit = cap * 2L;
                } else {
                    log.limit = Long.MAX_VALUE;
                }
            }
            if (t >= 0) {
                log.slots[(int) log.count & log.mask] = MARK_HIGH | (int) (t >>> 28);
                log.slots[(int) (log.count + 1) & log.mask] = MARK_LOW | ((int) t & MARK_VALUE);
                log.count += 2;
                log.marks += 2;
            }
            if (read) {
                log.nextRead = Clock.MODE == Clock.MODE_PRECISE ? 0 : log.count + Clock.READ_EVERY;
            }
            log.check = Math.min(log.limit, log.nextRead);
        }
        long c = log.count;
        log.slots[(int) c & log.mask] = word;
        log.count = c + 1;
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

    private void use(int[] ring) {
        slots = ring;
        mask = ring.length - 1;
        this.ring = ring;
    }
}
