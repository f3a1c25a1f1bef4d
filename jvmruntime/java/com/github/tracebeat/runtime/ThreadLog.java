package com.github.tracebeat.runtime;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

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
 * start, below 2^56 (more than two years). A mark whose high part is the
 * last full mark's is the low slot alone, as long as the ring holds a full
 * mark in its last {@link #FULL_MARK_EVERY} slots (a ring that wraps keeps
 * its records from its oldest full mark on).
 *
 * <p>The ring starts at 16 slots and doubles while the shared budget
 * allows, so a short thread (a virtual thread that runs one task) costs
 * about its records, not a ring. A ring that cannot grow wraps, and the
 * oldest slots are overwritten; it tries to grow again every
 * {@link #RETRY} records, since the threads that ended meanwhile give
 * their unused slots back (see {@link Recorder#reclaim}).
 *
 * <p>A reader on another thread (the {@link Monitor}: the stream's writer,
 * the slow and stall watch) takes the slots below {@link #published},
 * which the owner sets with a release store each time it reads the clock:
 * at most every {@link Clock#READ_EVERY} records and at every tick. In
 * stream mode the owner never overwrites a slot the reader has not taken
 * ({@link #drained}) while the budget lets its ring grow.
 */
final class ThreadLog {
    /** Bytes a slot takes. */
    static final int SLOT_BYTES = 4;
    static final int FIRST_CAPACITY = 1 << 4;
    static final int MAX_CAPACITY = 1 << 28;
    /** Records after which a ring that could not grow (or a thread without one) asks the budget again. */
    static final int RETRY = 1 << 12;
    /** Slots after which a mark is written whole again. */
    static final int FULL_MARK_EVERY = 1 << 10;

    static final int MARK_HIGH = 0xF0000000;
    static final int MARK_LOW = 0xE0000000;
    static final int MARK_BITS = 0xE0000000;
    static final int MARK_PART = 0x10000000;
    static final int MARK_VALUE = 0x0FFFFFFF;

    private static final int[] EMPTY = new int[0];

    final long threadId;
    /** The id the recording names the thread by (Platform: the Linux tid on Android, else threadId). */
    final long tid;
    final String firstName;
    final boolean virtual;
    final WeakReference<Thread> thread;

    /** The ring as a whole, for a reader on another thread; replaced when it grows. */
    volatile int[] ring = EMPTY;
    /** Slots written since the thread started, kept or not. */
    long count;
    /** Of count, the slots that were time marks. */
    long marks;
    /** The count at which the ring's first slot was written: slots before it were never stored. */
    long base;
    /**
     * The count up to which every slot is stored, for a reader on another
     * thread: written with {@link #PUBLISH} (a release store), read
     * volatile, so the reader sees the slots below it.
     */
    volatile long published;
    /** Stream mode: the count up to which the monitor has taken the slots; the owner may reuse those below. */
    volatile long drained;
    /**
     * How many times the ring could not grow (and so overwrites its oldest
     * slots, in stream mode those the monitor has not taken): while none,
     * a slot is never written twice, and the monitor need not check what
     * it copied.
     */
    volatile int wraps;
    /** Set while the monitor follows this thread: its ring is not given back under it. */
    volatile boolean followed;
    /** A ring size the monitor asks the owner to shrink to (0: none), so that a starving thread gets room. */
    volatile int shrinkTo;
    /** The monitor's reading state of this thread (owned by the monitor thread). */
    Cursor cursor;

    // Ring mode's watch (Settings.OWNER_WATCH), written by the owner only.
    /** The calls open, as the records go: one deeper at an enter, one up at an exit. */
    int depth;
    /** When each open call began (the time the thread's records carried then). */
    long[] enters;
    /** The calls below this depth hold a call reported slow: they are not reported for it. */
    int reportedBelow;
    /** The monitor's: the call whose stall it reported (its depth and start), not again. */
    int stallDepth = -1;
    long stallEnter;
    /**
     * What the thread kept, once it ended and {@link Recorder#reclaim} gave
     * its ring back to the budget; null before.
     */
    volatile TraceFile.Snapshot retired;

    /**
     * The owner's copy of ring and its index mask. A thread the budget left
     * without a ring writes to a slot of its own that nobody reads.
     */
    private int[] slots = new int[1];
    private int mask;
    /** count at which a write must make room (grow, start wrapping, or ask the budget again). */
    private long limit;

    /** count from which the next record reads the clock again although it has not ticked. */
    private long nextRead;
    /** The smaller of limit and nextRead: below it, and with no tick, a record is one store. */
    private long check;
    /** The clock's tick this thread last read the time at, and that time. */
    private int seenTick = -1;
    long lastTime = -1;
    /** count just after the thread's last time mark: the records from here on carry lastTime. */
    private long markedAt;
    /** count at the thread's last full mark, in this ring (-1: none), and its time. */
    private long fullMarkAt = -1;
    private long markedTime;
    /**
     * How late the thread's records' times may have been, added up over
     * its records (ns), and the records counted: their mean is the
     * clock's typical lateness, where the bound is its worst (diff weighs
     * a change against the typical one).
     */
    long lateSum;
    long timed;
    /** Quick records in a row since the thread last found its code sparse or the clock thread late. */
    private int quick;

    /** The words of this thread's open sections, for endSection; made by the first section. */
    private int[] sections;
    private int sectionDepth;

    /** A log of no thread (id -1), so that a lookup never meets null. */
    private static final ThreadLog NONE = new ThreadLog();

    private static final AtomicLongFieldUpdater<ThreadLog> PUBLISH = AtomicLongFieldUpdater.newUpdater(ThreadLog.class, "published");

    private static final ThreadLocal<ThreadLog> LOG = new ThreadLocal<ThreadLog>() {
        @Override
        protected ThreadLog initialValue() {
            ThreadLog log = new ThreadLog(Thread.currentThread());
            Recorder.add(log);
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
        tid = -1;
        firstName = "";
        virtual = false;
        thread = new WeakReference<Thread>(null);
    }

    ThreadLog(Thread t) {
        threadId = t.getId();
        tid = t == Thread.currentThread() ? Platform.tidOfCurrent(t) : threadId;
        firstName = t.getName();
        virtual = !Platform.ANDROID && VirtualThreads.is(t); // Android has none
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

    /** Whether this is the main looper's thread (Android; set by MainLooper). */
    volatile boolean mainLooper;

    /** The thread's name now, or the one it had when it first recorded. */
    String name() {
        Thread t = thread.get();
        return t != null ? t.getName() : firstName;
    }

    /** Whether the thread has ended: it writes no more records. */
    boolean ended() {
        Thread t = thread.get();
        return t == null || !t.isAlive();
    }

    /**
     * Records word now, in the calling thread's log. It first readies the
     * ring when it must: reads the clock when it has ticked, or the thread
     * has written the records it may write between reads (one in code that
     * calls little or while the clock thread is late, else
     * {@link Clock#READ_EVERY}), or always with the precise clock; marks the
     * time unless it has not moved (a thread's times never go back); makes
     * room for the slots.
     *
     * <p>One method, the lookup and the ring's growth included, on purpose:
     * at over 325 bytes of bytecode (HotSpot's FreqInlineSize) the JIT calls
     * it instead of inlining it into every traced method twice, and the
     * compiler threads, which took more CPU than ProGuard's own thread in a
     * recorded run (perf, two cores), have less to compile. docs/runtime.md
     * has the figures.
     */
    static void record(int word) {
        ThreadLog log = current();
        if (log.count >= log.check || Clock.tick != log.seenTick) {
            // Room for a mark's two slots and the word's: grow the ring
            // while the budget allows, else wrap from now on and ask again
            // after RETRY records; a thread that has no ring writes to its
            // unread slot, counting what it loses.
            boolean fresh = false;
            if (log.shrinkTo != 0) {
                log.shrink();
            }
            while (log.count + 3 > log.limit) {
                int cap = log.ring.length;
                if (Monitor.follows() && cap > 0) {
                    // The monitor takes the slots away as they come: a
                    // slot it took may be written again.
                    long room = Math.max(log.drained, log.base) + cap;
                    if (room > log.limit) {
                        log.limit = room;
                        continue;
                    }
                }
                long keep = cap == 0 ? 0 : Math.max(log.base, log.count - cap); // the oldest slot kept
                if (Monitor.follows() && cap > 0) {
                    keep = Math.max(log.base, Math.min(log.drained, log.count)); // the oldest slot not taken
                }
                int bigger = cap == 0 ? FIRST_CAPACITY : cap * 2;
                if (bigger <= MAX_CAPACITY && Recorder.reserve((long) (bigger - cap) * SLOT_BYTES)) {
                    int[] ring = new int[bigger];
                    if (cap == 0) {
                        log.base = log.count;
                        keep = log.count;
                        fresh = true;
                        log.fullMarkAt = -1;
                    } else {
                        for (long k = keep; k < log.count; k++) {
                            ring[(int) k & (bigger - 1)] = log.slots[(int) k & (cap - 1)];
                        }
                    }
                    log.use(ring);
                    log.limit = keep + bigger;
                } else if (Monitor.follows() && cap > 0 && log.waitForMonitor()) {
                    continue; // the monitor took some: room again
                } else {
                    log.wraps++; // one writer; from now on the monitor checks what it copies
                    if (cap == 0 || cap < Recorder.fairShare()) {
                        Recorder.starving();
                    }
                    log.limit = log.count + RETRY;
                }
            }
            int tick = Clock.tick;
            long t = -1; // the time to mark, if any
            if (fresh || tick != log.seenTick || log.count >= log.nextRead) {
                long now = Clock.now();
                long words = log.count - log.markedAt;
                long lateness = Clock.lateness(now, log.lastTime, words, log.seenTick, tick);
                if (words > 1) {
                    log.lateSum += lateness * (words - 1);
                }
                log.timed += words;
                boolean late = Clock.behind(now);
                if (Clock.MODE == Clock.MODE_PRECISE || late || log.lastTime >= 0 && words > 0 && now - log.lastTime > words * Clock.SPARSE_NANOS) {
                    log.quick = 0;
                } else if (log.quick < Clock.QUICK_RUN) {
                    log.quick++;
                }
                if (now > log.lastTime || fresh) {
                    log.lastTime = Math.max(now, log.lastTime);
                    t = log.lastTime;
                }
                if (t >= 0) {
                    // A new ring starts with a full mark, so its records have a time.
                    if (log.fullMarkAt < 0 || log.count - log.fullMarkAt >= FULL_MARK_EVERY || (t >>> 28) != (log.markedTime >>> 28)) {
                        log.fullMarkAt = log.count;
                        log.markedTime = t;
                        log.slots[(int) log.count & log.mask] = MARK_HIGH | (int) (t >>> 28);
                        log.count++;
                        log.marks++;
                    }
                    log.slots[(int) log.count & log.mask] = MARK_LOW | ((int) t & MARK_VALUE);
                    log.count++;
                    log.marks++;
                    log.markedAt = log.count;
                }
                log.seenTick = tick;
                log.nextRead = log.count + (log.quick < Clock.QUICK_RUN ? 1 : Clock.READ_EVERY);
            }
            log.check = Math.min(log.limit, log.nextRead);
            PUBLISH.lazySet(log, log.count);
        }
        long c = log.count;
        log.slots[(int) c & log.mask] = word;
        log.count = c + 1;
        if (Settings.OWNER_WATCH) {
            log.follow(word);
        }
    }

    /**
     * Ring mode's watch, on the thread's own records (the JIT drops it
     * without tracebeat.slow or tracebeat.stall): an enter keeps its time
     * at its depth; an exit finds its call's start there and, when it ran
     * longer than tracebeat.slow, tells the watch, unless a call inside it
     * was reported. A few instructions a record: far less than a monitor
     * thread reading every record back (see docs/runtime.md).
     */
    private void follow(int word) {
        int d = depth;
        long[] e = enters;
        if (word >= 0) {
            if (e == null || d == e.length) {
                e = enters = e == null ? new long[64] : java.util.Arrays.copyOf(e, d * 2);
            }
            e[d] = lastTime;
            depth = d + 1;
            if (d < reportedBelow) {
                reportedBelow = d;
            }
        } else if (d > 0) {
            depth = --d;
            if (lastTime - e[d] >= Settings.SLOW_NANOS && Settings.SLOW_NANOS > 0 && d >= reportedBelow) {
                Watch w = Monitor.watch();
                if (w != null && w.slow(this, word & ~Recorder.EXIT, e[d], lastTime)) {
                    reportedBelow = d + 1; // its callers hold it
                }
            }
        }
    }

    void beginSection(int word) {
        if (sections == null) {
            sections = new int[16];
        } else if (sectionDepth == sections.length) {
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
     * Halves the ring (or less) as the monitor asked: keeps the newest
     * slots (and, in stream mode, every slot not yet taken), and gives the
     * rest back to the budget. Called by the owner only.
     */
    private void shrink() {
        int target = shrinkTo;
        shrinkTo = 0;
        int cap = ring.length;
        long keep = Math.max(base, count - target);
        if (Monitor.follows()) {
            keep = Math.min(keep, Math.max(base, drained));
        }
        if (target < FIRST_CAPACITY || target >= cap || count - keep > target - 3) {
            return;
        }
        int[] smaller = new int[target];
        for (long k = keep; k < count; k++) {
            smaller[(int) k & (target - 1)] = slots[(int) k & (cap - 1)];
        }
        if (keep > base) {
            base = keep; // the slots before are gone: counted as lost
            fullMarkAt = fullMarkAt < keep ? -1 : fullMarkAt;
        }
        use(smaller);
        limit = keep + target;
        Recorder.release((long) (cap - target) * SLOT_BYTES);
    }

    /**
     * Stream mode, a ring full of slots the monitor has not taken and no
     * budget to grow: waits for it to take some, rather than lose records
     * (the program slows down to what the monitor keeps up with). Gives up
     * only when the monitor took nothing for {@link #STREAM_WAIT_NANOS}
     * (it is stuck, or gone), and the ring then overwrites. True when it
     * took some.
     */
    private boolean waitForMonitor() {
        PUBLISH.lazySet(this, count);
        long before = drained;
        if (!Monitor.running()) {
            return false;
        }
        long until = System.nanoTime() + STREAM_WAIT_NANOS;
        while (drained == before && System.nanoTime() < until && Monitor.running()) {
            Monitor.hurry();
            java.util.concurrent.locks.LockSupport.parkNanos(100000L);
        }
        return drained != before;
    }

    /** How long a thread in stream mode waits for a monitor that takes nothing before it overwrites records. */
    static final long STREAM_WAIT_NANOS = 2000000000L;

    /**
     * Gives an ended thread's ring back: keeps a copy of its records (see
     * {@link TraceFile.Snapshot}) and returns the bytes of the budget the
     * copy does not take. Called by {@link Recorder#reclaim} only, once.
     */
    long retire() {
        if (Monitor.follows()) {
            // Its records are in the stream already (the monitor took them all).
            int cap = ring.length;
            TraceFile.Snapshot none = new TraceFile.Snapshot();
            none.a = new int[0];
            none.first = count;
            retired = none;
            ring = EMPTY;
            slots = new int[1];
            mask = 0;
            return (long) cap * SLOT_BYTES;
        }
        TraceFile.Snapshot kept = TraceFile.Snapshot.of(this).compact();
        int cap = ring.length;
        retired = kept; // before the ring goes: a reader that sees the empty ring sees this too
        ring = EMPTY;
        slots = new int[1];
        mask = 0;
        return (long) (cap - kept.len) * SLOT_BYTES;
    }

    private void use(int[] ring) {
        slots = ring;
        mask = ring.length - 1;
        this.ring = ring;
    }
}
