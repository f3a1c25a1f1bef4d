package com.github.tracebeat.runtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Records method enters and exits of every thread, for tracebeat decode.
 *
 * <p>Each thread writes to its own ring buffer (see {@link ThreadLog}): no
 * lock and no shared write on the hot path, only a thread-local lookup, a
 * time (see {@link Clock}: most records reuse the thread's last clock read)
 * and an array store. The buffers share one memory budget,
 * 16 MiB (four million records) unless the system property {@code tracebeat.budget} says otherwise
 * ({@code 256k}, {@code 16m}, {@code 1g} or bytes); a thread whose buffer
 * cannot grow within it overwrites its oldest records, and the file says
 * how many went. A thread that ends gives back what its buffer does not
 * hold, so a million short virtual threads cost their records.
 *
 * <p>With {@code -Dtracebeat.trace=FILE} the recording is written to FILE
 * when the JVM exits (ring mode, the default), or all along while the
 * program runs ({@code -Dtracebeat.mode=stream}: the whole run, see
 * {@link Stream}). {@link #write(String)} writes it at any other time, and
 * so does a dump asked from outside ({@link Triggers}). Slow calls and
 * stalls write reports of their own ({@link Watch}). {@link Settings}
 * lists the properties. A recording that cannot be written costs one line
 * on stderr; the program's own behaviour never changes.
 */
public final class Recorder {
    /** Word bit: the record is an exit (else an enter). */
    static final int EXIT = 0x80000000;
    /** Word bit: the id is an index into the section-name table, not a method id. */
    static final int SECTION = 0x40000000;
    static final int ID_MASK = 0x3FFFFFFF;

    static final long START_EPOCH_MILLIS = System.currentTimeMillis();
    /** Starts the clock (and its thread) with the recorder. */
    static final int CLOCK_MODE = Clock.MODE;

    static final long DEFAULT_BUDGET = Settings.DEFAULT_BUDGET;
    static final long BUDGET = Settings.BUDGET;
    /** Bytes of the budget not yet given to a thread's buffer. */
    static final AtomicLong UNRESERVED = new AtomicLong(BUDGET);

    /** Every thread's log, in the order they first recorded. */
    static final ConcurrentLinkedQueue<ThreadLog> LOGS = new ConcurrentLinkedQueue<ThreadLog>();
    /** The logs whose ring has not been given back yet (see {@link #reclaim}). */
    private static final ConcurrentLinkedQueue<ThreadLog> HOLDING = new ConcurrentLinkedQueue<ThreadLog>();
    /** Logs made so far, and how many there were at the last sweep. */
    private static final AtomicInteger MADE = new AtomicInteger();
    /** Logs in HOLDING (its size() walks the queue). */
    private static final AtomicInteger HELD = new AtomicInteger();
    private static volatile int sweptAtMade;
    private static volatile long sweptAtNanos = Long.MIN_VALUE / 2;
    private static volatile int holdingAtSweep;
    private static final ReentrantLock SWEEP = new ReentrantLock();
    /** No sweep sooner than this after the last, unless many threads started since. */
    private static final long SWEEP_EVERY_NANOS = 10000000L;

    private static final ConcurrentHashMap<String, Integer> SECTION_IDS = new ConcurrentHashMap<String, Integer>();
    static final ConcurrentHashMap<Integer, String> SECTION_NAMES = new ConcurrentHashMap<Integer, String>();
    private static final AtomicInteger NEXT_SECTION = new AtomicInteger();

    /** The clock's lateness of the threads no longer in LOGS (see {@link #lateness}). */
    private static volatile long goneLateSum;
    private static volatile long goneTimed;

    /**
     * How late the records' times may have been, added up (ns) over the
     * records counted, of every thread: [sum, records]. Read while threads
     * write: a thread's last few are left out, which the mean does not miss.
     */
    static long[] lateness() {
        long sum = goneLateSum;
        long n = goneTimed;
        for (ThreadLog log : LOGS) {
            sum += log.lateSum;
            n += log.timed;
        }
        return new long[] {sum, n};
    }

    /** When a thread last found no budget for a ring of its own (Clock.now), or -1. */
    private static volatile long starvedAt = -1;

    static {
        Monitor.start();
        if (Settings.LOOPER) {
            MainLooper.install(); // names framework classes: Android only
        }
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(new ExitWriter(), "tracebeat-trace-writer"));
        } catch (IllegalStateException | SecurityException e) {
            System.err.println("tracebeat: cannot write the trace at exit: " + e);
        }
    }

    private Recorder() {
    }

    /** A method starts. Negative ids are ignored. */
    public static void enter(int methodId) {
        if (methodId >= 0) {
            ThreadLog.record(methodId & ID_MASK);
        }
    }

    /** An Activity's onWindowFocusChanged (AppMethodBeat.at): the first focus ends the cold start (Android). */
    public static void focus(Object activity, boolean hasFocus) {
        Startup.focus(activity, hasFocus);
    }

    /** A method ends, normally or by an exception. */
    public static void exit(int methodId) {
        if (methodId >= 0) {
            ThreadLog.record(EXIT | (methodId & ID_MASK));
        }
    }

    /**
     * A section starts (android.os.Trace.beginSection). A name of decimal
     * digits is a method id, as tracebeat's systrace mode writes them.
     */
    public static void beginSection(String name) {
        ThreadLog.current().beginSection(sectionWord(name));
    }

    /** The innermost open section of this thread ends. */
    public static void endSection() {
        ThreadLog.current().endSection();
    }

    /**
     * Writes everything recorded so far to {@code file} (replaced as a whole:
     * written to a temporary file next to it, then renamed). Threads keep
     * recording meanwhile; records they write during the call may be missing
     * from the file. In stream mode it is the stream up to now, with a
     * footer.
     */
    public static void write(String file) throws IOException {
        Monitor.IO.lock();
        try {
            Monitor m = Monitor.current();
            if (m != null && m.stream != null) {
                m.copyStream(file);
                return;
            }
            SWEEP.lock();
            try {
                List<ThreadLog> logs = new ArrayList<ThreadLog>(LOGS);
                TraceFile.writeSnapshot(file, logs, TraceFile.KIND_WRITE, 0, Long.MAX_VALUE, null);
            } finally {
                SWEEP.unlock();
            }
        } finally {
            Monitor.IO.unlock();
        }
    }

    static int sectionWord(String name) {
        if (name == null) {
            name = "null";
        }
        int id = methodIdOf(name);
        if (id >= 0) {
            return id;
        }
        Integer known = SECTION_IDS.get(name);
        if (known == null) {
            synchronized (SECTION_IDS) { // once per distinct name, never on the hot path
                known = SECTION_IDS.get(name);
                if (known == null) {
                    // Below 2^29: the exit of a higher index would look like a time mark (ThreadLog).
                    known = NEXT_SECTION.getAndIncrement() & (ID_MASK >>> 1);
                    SECTION_NAMES.put(known, name);
                    SECTION_IDS.put(name, known);
                }
            }
        }
        return SECTION | known;
    }

    /** The number that name spells in decimal, or -1. */
    static int methodIdOf(String name) {
        int n = name.length();
        if (n == 0 || n > 9) {
            return -1;
        }
        int v = 0;
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v & ID_MASK;
    }

    /** Takes a new thread's log in. */
    static void add(ThreadLog log) {
        LOGS.add(log);
        HOLDING.add(log);
        HELD.incrementAndGet();
        MADE.incrementAndGet();
        if (Monitor.follows()) {
            Monitor.FRESH.add(log);
        }
    }

    /** A thread found no budget for its ring (or for a ring of its fair share). */
    static void starving() {
        starvedAt = Clock.now();
    }

    /** Whether a thread starved after t. */
    static boolean starvedSince(long t) {
        return starvedAt >= t;
    }

    /** The bytes of the budget each ring would have if all shared it alike. */
    static long fairShare() {
        return BUDGET / Math.max(1, HELD.get()) / ThreadLog.SLOT_BYTES;
    }

    /**
     * Ring mode's stall watch: a thread that has made no record for the
     * threshold, inside a call begun longer ago than that, is stuck there
     * (its depth and the calls' starts are its own, read here while it is
     * quiet, so they no longer change). The call is found in its ring: the
     * last enter that no exit closed.
     */
    static void lookForStalls(Watch watch, long now) {
        for (ThreadLog log : HOLDING) {
            int d = log.depth;
            long[] e = log.enters;
            long last = log.lastTime;
            if (d <= 0 || e == null || d > e.length || last < 0 || now - last < Settings.STALL_NANOS || log.ended()) {
                continue;
            }
            long enter = e[d - 1];
            if (log.stallDepth == d && log.stallEnter == enter) {
                continue; // reported
            }
            int[] words = openWords(log, d);
            if (words != null && watch.stall(log, now, last, words, d, enter)) {
                log.stallDepth = d;
                log.stallEnter = enter;
            }
        }
    }

    /**
     * The words of the innermost calls open, as far back as the ring holds
     * their enters (the others are -1): read backwards from the newest
     * record, an enter no exit after it closed is open. Null when the ring
     * is empty.
     */
    private static int[] openWords(ThreadLog log, int depth) {
        int[] ring = log.ring;
        long count = log.count;
        int cap = ring.length;
        if (cap == 0) {
            return null;
        }
        int[] words = new int[depth];
        java.util.Arrays.fill(words, -1);
        int exits = 0;
        int at = depth - 1;
        for (long k = count - 1; k >= Math.max(0, count - cap) && at >= 0; k--) {
            int slot = ring[(int) k & (cap - 1)];
            if ((slot & ThreadLog.MARK_BITS) == ThreadLog.MARK_BITS) {
                continue;
            }
            if (slot < 0) {
                exits++;
            } else if (exits > 0) {
                exits--;
            } else {
                words[at--] = slot;
            }
        }
        return words;
    }

    /** Bytes a ring gave back (it shrank). */
    static void release(long bytes) {
        UNRESERVED.addAndGet(bytes);
    }

    /**
     * Asks the largest ring to halve when it holds more than its fair share
     * of the budget, so that a thread that started after the budget was
     * spent (an event loop's late helper) records too. Called by the
     * monitor after a thread starved; the owner shrinks at its next clock
     * read, keeping its newest records.
     */
    static void rebalance() {
        ThreadLog largest = null;
        int rings = 0;
        for (ThreadLog log : HOLDING) {
            int cap = log.ring.length;
            if (cap > 0) {
                rings++;
            }
            if (cap > 0 && !log.ended() && (largest == null || cap > largest.ring.length)) {
                largest = log;
            }
        }
        if (largest == null) {
            return;
        }
        long fair = BUDGET / ThreadLog.SLOT_BYTES / (rings + 1);
        int cap = largest.ring.length;
        if (cap > fair && cap >= 4 * ThreadLog.FIRST_CAPACITY) {
            largest.shrinkTo = cap / 2;
        }
    }

    /**
     * Takes bytes from the budget; false when too few are left, after
     * asking the threads that ended for theirs (see {@link #reclaim}).
     */
    static boolean reserve(long bytes) {
        return take(bytes) || (reclaim() && take(bytes));
    }

    /**
     * Gives the budget of ended threads back: each keeps an exact copy of
     * its records, and its ring's other slots return to the budget. A sweep
     * looks at every log still holding a ring, so it runs when a thread
     * finds the budget spent and, to keep its cost in proportion, only when
     * an eighth as many threads as it looked at last time started since, or
     * 10 ms passed. It never waits: while another thread sweeps or writes
     * the file, it returns false.
     */
    static boolean reclaim() {
        int made = MADE.get();
        if (made - sweptAtMade < Math.max(64, holdingAtSweep / 8) && Clock.now() - sweptAtNanos < SWEEP_EVERY_NANOS) {
            return false;
        }
        if (!SWEEP.tryLock()) {
            return false;
        }
        try {
            long freed = 0;
            int holding = 0;
            for (Iterator<ThreadLog> it = HOLDING.iterator(); it.hasNext();) {
                ThreadLog log = it.next();
                if (log.ended() && !log.followed) {
                    freed += log.retire();
                    it.remove();
                    HELD.decrementAndGet();
                } else {
                    holding++;
                }
            }
            if (Monitor.follows() && freed > 0) {
                // A long run starts threads all along: in the stream, those
                // that ended are in the file, and need not be remembered.
                for (Iterator<ThreadLog> it = LOGS.iterator(); it.hasNext();) {
                    ThreadLog log = it.next();
                    if (log.retired != null) {
                        goneLateSum += log.lateSum;
                        goneTimed += log.timed;
                        it.remove();
                    }
                }
            }
            sweptAtMade = made;
            sweptAtNanos = Clock.now();
            holdingAtSweep = holding;
            if (freed > 0) {
                UNRESERVED.addAndGet(freed);
            }
            return freed > 0;
        } finally {
            SWEEP.unlock();
        }
    }

    private static boolean take(long bytes) {
        for (;;) {
            long left = UNRESERVED.get();
            if (left < bytes) {
                return false;
            }
            if (UNRESERVED.compareAndSet(left, left - bytes)) {
                return true;
            }
        }
    }

    private static final class ExitWriter implements Runnable {
        @Override
        public void run() {
            String file = Settings.trace();
            Monitor m = Monitor.current();
            if (m != null && m.finish() || file == null) {
                return;
            }
            try {
                Monitor.IO.lock();
                try {
                    SWEEP.lock();
                    try {
                        TraceFile.writeSnapshot(file, new ArrayList<ThreadLog>(LOGS), TraceFile.KIND_EXIT, 0, Long.MAX_VALUE, null);
                    } finally {
                        SWEEP.unlock();
                    }
                } finally {
                    Monitor.IO.unlock();
                }
            } catch (Throwable e) {
                // An IOException of ours says why in words; others by class.
                String why = e instanceof IOException && e.getMessage() != null ? e.getMessage() : e.toString();
                System.err.println("tracebeat: cannot write the trace to " + file + ": " + why);
            }
        }
    }
}
