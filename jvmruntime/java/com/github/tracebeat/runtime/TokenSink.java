package com.github.tracebeat.runtime;

/**
 * Follows one thread's slots in order, in one loop: reads the time marks,
 * keeps the calls open, tells the slow and stall watch of what returned,
 * and, when asked, writes the records as a block of tokens (RECORDING.md,
 * version 4): about a byte a record where a ring slot takes four, before
 * deflate takes it to a fifth of that. The stream, the ring mode's watch
 * (no tokens) and the files written from the rings (at exit, dumps,
 * reports) all go through it: the monitor follows every record of every
 * thread, so this loop is what recording a whole run costs.
 *
 * <p>The tokens lean on the open calls, which the decoder rebuilds the same
 * way: an exit of the innermost open call is one token for up to 64 of them
 * in a row; an enter is its word's difference from the last enter's, in
 * one byte when it is small (calls nearby in a class have nearby ids); an
 * enter followed at the same time by its exit is one "leaf" token; a time
 * is written only when it changes, as its difference from the last. A
 * block starts with the calls open at its start (their words and times),
 * so that a decoder can start at any block: a chunk of the stream that went
 * (the size bound) or was damaged takes no other with it.
 *
 * <pre>
 * 0x00-0x3F  1 to 64 exits of the innermost open call
 * 0x40-0x7F  a leaf call: word = last enter + (token - 0x60)
 * 0x80-0xBF  an enter:    word = last enter + (token - 0xA0)
 * 0xF0 z     the time moves by z (a zigzag varint, ns)
 * 0xF1 u     an exit of word u that is not the innermost open call
 * 0xF2 z     a leaf call, word = last enter + z
 * 0xF3 z     an enter, word = last enter + z
 * 0xF4 u     u records went here (overwritten before the monitor took them): no call is known open after
 * </pre>
 *
 * <p>An exit closes the innermost open call of its word, and the calls above
 * it with it; an exit of a word that is not open changes nothing (the
 * decoder's rules too).
 *
 * <p>Times come with marks, and the records between two marks (a batch, at
 * most {@link Clock#READ_EVERY} of them in dense code) carry the first
 * mark's time, so the calls' times are settled a batch at a time: the
 * calls open at a batch's start whose depth the batch went below returned
 * in it, at its time; the calls open at its end from that lowest depth up
 * were entered in it, at its time. A call is slow when it returned a
 * threshold after it was entered, and the innermost such call is reported
 * (its callers are slow because of it).
 */
final class TokenSink implements SlotSink {
    static final int EXIT_RUN = 0x00;
    static final int LEAF = 0x40;
    static final int ENTER = 0x80;
    static final int TIME = 0xF0;
    static final int EXIT_WORD = 0xF1;
    static final int LEAF_FAR = 0xF2;
    static final int ENTER_FAR = 0xF3;
    static final int GAP = 0xF4;

    /** Call flags: the watch reported the call, or a call inside it, or its stall. */
    static final int REPORTED = 1;
    static final int INNER_REPORTED = 2;
    static final int STALL_REPORTED = 4;

    final ThreadLog log;
    private final Watch watch;
    private final boolean writing;

    // Marks: the time of the records that follow.
    private long high = -1;
    private long pendingHigh;
    private boolean havePending;
    /** The batch's time, -1 before the first whole mark (and after a loss). */
    private long time = -1;

    // The calls open: words[d] is the word of the call open at depth d.
    private int depth;
    private int[] words = new int[64];
    /** The words of the calls open at the batch's start (below batchStart). */
    private int[] startWords = new int[64];
    /** When each open call began (valid below batchLow: those above began in this batch). */
    private long[] enters = new long[64];
    private byte[] flags = new byte[64];
    private int batchStart;
    private int batchLow;
    /** The time of the thread's last record, -1 before one. */
    long lastTime = -1;

    // What the file takes (the window of a report: the records before from
    // only move the calls, those after to are left out).
    private long from;
    private long to = Long.MAX_VALUE;
    private boolean begun;
    private boolean over;

    // The block being written.
    private byte[] out = new byte[256];
    private int n;
    private int[] openWords = new int[0];
    private long[] openEnters = new long[0];
    private int open;
    private long lostBefore;
    private long records;
    private long t0 = -1;
    private long cur = -1;
    private int prev;
    private int exits;
    private boolean pending;
    private int pendingWord;
    private boolean anyGap;
    /** Records lost (overwritten, or with no mark before them) not yet written as a gap. */
    private long lost;

    /** watch: null for none; writing: tokens are kept (else the calls are followed for the watch alone). */
    TokenSink(ThreadLog log, Watch watch, boolean writing) {
        this.log = log;
        this.watch = watch;
        this.writing = writing;
        begun = !writing;
    }

    /** Keeps in the block only the records from time from to time to (a report's window). */
    void window(long from, long to) {
        this.from = from;
        this.to = to;
    }

    /** Records lost before the first slot given (a ring that wrapped). */
    void lostBefore(long n) {
        lostBefore = n;
    }

    /** Slots encoded between two checks of the tokens' room. */
    private static final int STEP = 4096;

    @Override
    public void slots(int[] b, int start, int end) {
        if (!writing) {
            watchSlots(b, start, end);
            return;
        }
        for (int k = start; k < end; k += STEP) {
            encode(b, k, Math.min(end, k + STEP));
        }
    }

    private void encode(int[] b, int start, int end) {
        // Room for the most a record writes (a token and a 64-bit varint),
        // for every slot given: no check on each. The state the loop
        // changes is held in locals, written back before any call that
        // reads it and read again after.
        room(11 * (end - start) + 16);
        int d = depth;
        int low = batchLow;
        int[] w = words;
        byte[] o = out;
        int at = n;
        boolean fast = begun && !over && time >= 0 && time == cur;
        boolean pend = pending;
        int pw = pendingWord;
        int ex = exits;
        int pv = prev;
        long rec = records;
        for (int k = start; k < end; k++) {
            int slot = b[k];
            if ((slot & ThreadLog.MARK_BITS) == ThreadLog.MARK_BITS || !fast) {
                depth = d;
                batchLow = low;
                n = at;
                pending = pend;
                pendingWord = pw;
                exits = ex;
                prev = pv;
                records = rec;
                boolean take = slowPath(slot);
                fast = begun && !over && time >= 0 && time == cur;
                d = depth;
                low = batchLow;
                w = words;
                o = out;
                at = n;
                pend = pending;
                pw = pendingWord;
                ex = exits;
                pv = prev;
                rec = records;
                if (!take) {
                    continue;
                }
            }
            rec++;
            if (slot >= 0) {
                if (d + 1 >= w.length) {
                    depth = d;
                    grow();
                    w = words;
                }
                if (pend) {
                    long delta = (long) pw - pv;
                    pv = pw;
                    if (delta >= -32 && delta < 32) {
                        o[at++] = (byte) (ENTER + 32 + (int) delta);
                    } else {
                        o[at++] = (byte) ENTER_FAR;
                        at = varint(o, at, delta);
                    }
                } else if (ex > 0) {
                    o[at++] = (byte) (EXIT_RUN + ex - 1);
                    ex = 0;
                }
                pend = true;
                pw = slot;
                w[d++] = slot;
                continue;
            }
            int word = slot & ~Recorder.EXIT;
            if (d > 0 && w[d - 1] == word) {
                if (pend) {
                    pend = false;
                    long delta = (long) word - pv;
                    pv = word;
                    if (delta >= -32 && delta < 32) {
                        o[at++] = (byte) (LEAF + 32 + (int) delta);
                    } else {
                        o[at++] = (byte) LEAF_FAR;
                        at = varint(o, at, delta);
                    }
                } else if (++ex == 64) {
                    o[at++] = (byte) (EXIT_RUN + 63);
                    ex = 0;
                }
                d--;
                if (d < low) {
                    low = d;
                }
                continue;
            }
            depth = d;
            batchLow = low;
            n = at;
            pending = pend;
            pendingWord = pw;
            exits = ex;
            prev = pv;
            records = rec;
            exitWord(word);
            fast = begun && !over && time >= 0 && time == cur;
            d = depth;
            low = batchLow;
            o = out;
            at = n;
            pend = pending;
            ex = exits;
            pv = prev;
        }
        depth = d;
        batchLow = low;
        n = at;
        pending = pend;
        pendingWord = pw;
        exits = ex;
        prev = pv;
        records = rec;
        if (time >= 0) {
            lastTime = time;
        }
    }

    /**
     * A slot the loop's fast path does not take: a mark, a record with no
     * time, or one before or after the block's window or at a new time.
     * True when the record is then taken by the fast path.
     */
    private boolean slowPath(int slot) {
        if ((slot & ThreadLog.MARK_BITS) == ThreadLog.MARK_BITS) {
            mark(slot);
            return false;
        }
        if (time < 0) {
            lost++; // no mark before it gave its time
            return false;
        }
        if (!prepare()) {
            follow(slot);
            return false;
        }
        return true;
    }

    /**
     * The watch alone (ring mode): no tokens, so no record needs to know
     * whether it is an enter or an exit on a branch, which the processor
     * would guess wrong half the time in recursive code: a record writes
     * its word at the depth, and goes one deeper (an enter) or one up (an
     * exit, whose word lands just above the open calls, where nothing is
     * kept). So an exit of another word than the innermost call's closes
     * that call: the watch's rule, not the file's (instrumented code exits
     * every call it enters, on every way out).
     */
    private void watchSlots(int[] b, int start, int end) {
        int d = depth;
        int low = batchLow;
        int[] w = words;
        for (int k = start; k < end; k++) {
            int slot = b[k];
            if ((slot & ThreadLog.MARK_BITS) == ThreadLog.MARK_BITS) {
                depth = d;
                batchLow = low;
                mark(slot);
                d = depth;
                low = batchLow;
                w = words;
                continue;
            }
            if (time < 0) {
                lost++;
                continue;
            }
            w[d] = slot;
            d += 1 - ((slot >>> 31) << 1);
            if (d < 0) {
                d = 0; // an exit with no call open
            }
            if (d < low) {
                low = d;
            }
            if (d + 1 >= w.length) {
                depth = d;
                batchLow = low;
                grow();
                w = words;
            }
        }
        depth = d;
        batchLow = low;
        if (time >= 0) {
            lastTime = time;
        }
    }

    /**
     * Before a record that needs more than the loop's fast path: starts the
     * block at the window's start, stops it at its end, writes a time that
     * changed. False when the record only moves the calls (before the
     * window, or not written at all).
     */
    private boolean prepare() {
        if (!writing) {
            cur = time; // the watch alone: no block
            return true;
        }
        if (over || time > to) {
            over = true;
            return false;
        }
        if (!begun) {
            if (time < from) {
                return false;
            }
            begin(lostBefore);
        }
        if (time != cur) {
            if (cur < 0) {
                t0 = time;
            } else {
                flushPending();
                flushExits();
                room(12);
                out[n++] = (byte) TIME;
                n = varint(out, n, time - cur);
            }
            cur = time;
        }
        return true;
    }

    /** A record outside the block: it moves the calls only. */
    private void follow(int slot) {
        if (over) {
            return;
        }
        if (slot >= 0) {
            if (depth + 1 >= words.length) {
                grow();
            }
            words[depth++] = slot;
            return;
        }
        int word = slot & ~Recorder.EXIT;
        int i = find(word);
        if (i >= 0) {
            closeTo(i);
        }
    }

    /** An exit that is not of the innermost open call (rare): written whole. */
    private void exitWord(int word) {
        if (writing) {
            flushPending();
            flushExits();
            room(8);
            out[n++] = (byte) EXIT_WORD;
            n = uvarint(out, n, word & 0xFFFFFFFFL);
        }
        int i = find(word);
        if (i >= 0) {
            closeTo(i);
        }
    }

    private int find(int word) {
        for (int i = depth - 1; i >= 0; i--) {
            if (words[i] == word) {
                return i;
            }
        }
        return -1;
    }

    /** Closes the call at depth i and those above it, now. */
    private void closeTo(int i) {
        depth = i;
        if (i < batchLow) {
            batchLow = i;
        }
    }

    /** A mark's slot: a new time settles the batch before it. */
    private void mark(int slot) {
        long t;
        if ((slot & (ThreadLog.MARK_BITS | ThreadLog.MARK_PART)) == ThreadLog.MARK_HIGH) {
            pendingHigh = (long) (slot & ThreadLog.MARK_VALUE) << 28;
            havePending = true;
            return;
        } else if (havePending) {
            high = pendingHigh;
            havePending = false;
            t = high | (slot & ThreadLog.MARK_VALUE);
        } else if (high >= 0) {
            t = high | (slot & ThreadLog.MARK_VALUE);
        } else {
            return; // a short mark with no whole one before: no time yet
        }
        if (t == time) {
            return;
        }
        if (time >= 0) {
            settle();
        } else {
            if (lost > 0) {
                gap(); // the records lost before this time: said before the next
            }
            batchStart = depth;
            batchLow = depth;
        }
        time = t;
    }

    /**
     * Settles the batch at its time: the calls that returned in it (the
     * innermost first: a slow one is reported), those that began in it.
     */
    private void settle() {
        long at = time;
        int low = batchLow;
        if (watch != null && Settings.SLOW_NANOS > 0) {
            for (int d = batchStart - 1; d >= low; d--) {
                int inner = flags[d] & (REPORTED | INNER_REPORTED);
                if (inner == 0 && at - enters[d] >= Settings.SLOW_NANOS && watch.slow(log, startWords[d], enters[d], at)) {
                    inner = REPORTED;
                }
                if (inner != 0 && d > 0) {
                    flags[d - 1] |= INNER_REPORTED;
                }
            }
        }
        for (int d = low; d < depth; d++) {
            enters[d] = at;
            flags[d] = 0;
            startWords[d] = words[d];
        }
        batchStart = depth;
        batchLow = depth;
    }

    /** Records that went: no call is known open after them. */
    private void gap() {
        if (writing && begun && !over) {
            flushPending();
            flushExits();
            room(12);
            out[n++] = (byte) GAP;
            n = uvarint(out, n, lost);
            anyGap = true;
        } else if (writing && !begun) {
            lostBefore += lost;
        }
        lost = 0;
        depth = 0;
        batchStart = 0;
        batchLow = 0;
    }

    @Override
    public void lost(long slots) {
        if (time >= 0) {
            settle();
        }
        high = -1;
        havePending = false;
        time = -1;
        lost += slots;
    }

    @Override
    public void ended() {
        if (time >= 0) {
            settle();
        }
    }

    /**
     * The thread wrote nothing since the last look: its batch is over (a
     * record it makes later, past a tick, comes after a new mark), so what
     * returned in it is settled now rather than at the thread's next
     * record, which may be long in coming (a server that waits for work).
     */
    @Override
    public void quiet() {
        if (time >= 0 && (batchStart != depth || batchLow != depth)) {
            settle();
        }
    }

    @Override
    public void lookForStall(Watch w, long now) {
        quiet(); // settled: the innermost call's time and flags are its own
        int top = depth - 1;
        if (top < 0 || time < 0 || (flags[top] & STALL_REPORTED) != 0) {
            return;
        }
        if (w.stall(log, now, lastTime, words, depth, enters[top])) {
            flags[top] |= STALL_REPORTED;
        }
    }

    // The block.

    /** Starts a block: the calls open now, and the records lost just before it. */
    void begin(long lostFirst) {
        begun = true;
        n = 0;
        if (openWords.length < depth) {
            openWords = new int[depth];
            openEnters = new long[depth];
        }
        System.arraycopy(words, 0, openWords, 0, depth);
        for (int d = 0; d < depth; d++) {
            openEnters[d] = d < batchLow || time < 0 ? enters[d] : time;
        }
        open = depth;
        lostBefore = lostFirst;
        records = 0;
        t0 = -1;
        cur = -1;
        prev = 0;
        exits = 0;
        pending = false;
        anyGap = false;
    }

    /** Whether the block holds nothing to write. */
    boolean empty() {
        return !begun || records == 0 && lostBefore == 0 && !anyGap;
    }

    long records() {
        return records;
    }

    long firstTime() {
        return t0;
    }

    long lastTime() {
        return cur;
    }

    /** Token bytes of the block so far. */
    int size() {
        return n;
    }

    private void flushPending() {
        if (pending) {
            pending = false;
            room(12);
            n = delta(out, n, pendingWord, ENTER, ENTER_FAR);
        }
    }

    private void flushExits() {
        if (exits > 0) {
            room(1);
            out[n++] = (byte) (EXIT_RUN + exits - 1);
            exits = 0;
        }
    }

    /** Writes word as its difference from the last enter's, in the near token if it fits. */
    private int delta(byte[] o, int at, int word, int near, int far) {
        long d = (long) word - prev;
        prev = word;
        if (d >= -32 && d < 32) {
            o[at++] = (byte) (near + 32 + (int) d);
            return at;
        }
        o[at++] = (byte) far;
        return varint(o, at, d);
    }

    private static int varint(byte[] o, int at, long v) {
        return uvarint(o, at, (v << 1) ^ (v >> 63));
    }

    private static int uvarint(byte[] o, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            o[at++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        o[at++] = (byte) v;
        return at;
    }

    private byte[] room(int more) {
        if (n + more > out.length) {
            out = java.util.Arrays.copyOf(out, Math.max(n + more, out.length * 2));
        }
        return out;
    }

    private void grow() {
        int m = words.length * 2;
        words = java.util.Arrays.copyOf(words, m);
        startWords = java.util.Arrays.copyOf(startWords, m);
        enters = java.util.Arrays.copyOf(enters, m);
        flags = java.util.Arrays.copyOf(flags, m);
    }

    /**
     * Ends the block and appends it to into: the thread, its open calls at
     * the start, the lost records, and the tokens (deflated when that makes
     * them smaller); then starts the next block here.
     */
    void finish(Bytes into, String name, Packer packer) {
        if (lost > 0 && time < 0) {
            gap();
        }
        flushPending();
        flushExits();
        into.u64(log.tid);
        into.str(name);
        into.u8(log.virtual ? TraceFile.VIRTUAL : 0);
        into.u64(lostBefore);
        into.u32(records);
        into.u32(open);
        for (int i = 0; i < open; i++) {
            into.u32(openWords[i] & 0xFFFFFFFFL);
            into.u64(openEnters[i]);
        }
        into.u64(Math.max(t0, 0));
        packer.pack(out, n, into);
        if (begun && !over) {
            begin(0);
        }
    }
}
