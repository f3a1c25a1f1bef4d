package com.github.tracebeat.runtime;

import java.util.zip.Deflater;

/**
 * Encodes one thread's records into a block of tokens (RECORDING.md,
 * version 4): about a byte a record where a ring slot takes four, before
 * deflate takes it to a fifth of that.
 *
 * <p>The tokens lean on the thread's {@link CallStack}, which the decoder
 * rebuilds the same way: an exit of the innermost open call is one token
 * for up to 64 of them in a row; an enter is its word's difference from
 * the last enter's, in one byte when it is small (calls nearby in a class
 * have nearby ids); an enter followed at the same time by its exit is one
 * "leaf" token; a time is written only when it changes, as its difference
 * from the last. A block starts with the calls open at its start (their
 * words and times), so that a decoder can start at any block: a chunk of
 * the stream that went (the size bound) or was damaged takes no other
 * with it.
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
 */
final class BlockEncoder {
    static final int EXIT_RUN = 0x00;
    static final int LEAF = 0x40;
    static final int ENTER = 0x80;
    static final int TIME = 0xF0;
    static final int EXIT_WORD = 0xF1;
    static final int LEAF_FAR = 0xF2;
    static final int ENTER_FAR = 0xF3;
    static final int GAP = 0xF4;

    /** Encodings of a block's tokens. */
    static final int RAW = 0;
    static final int DEFLATED = 1;
    /** Token bytes below which deflate is not worth its header. */
    private static final int DEFLATE_FROM = 256;

    final Bytes tokens = new Bytes(1024);
    private int[] openWords = new int[0];
    private long[] openEnters = new long[0];
    private int open;
    private long lost;
    private long records;
    private long t0 = -1;
    private long cur = -1;
    private int prev;
    private int exits;
    private boolean pending;
    private int pendingWord;
    private boolean anyGap;

    /** Starts a block: the calls open now, and the records lost just before it. */
    void begin(CallStack stack, long lostBefore) {
        tokens.clear();
        if (openWords.length < stack.depth) {
            openWords = new int[stack.depth];
            openEnters = new long[stack.depth];
        }
        System.arraycopy(stack.words, 0, openWords, 0, stack.depth);
        System.arraycopy(stack.enters, 0, openEnters, 0, stack.depth);
        open = stack.depth;
        lost = lostBefore;
        records = 0;
        t0 = -1;
        cur = -1;
        prev = 0;
        exits = 0;
        pending = false;
        anyGap = false;
    }

    boolean empty() {
        return records == 0 && lost == 0 && !anyGap;
    }

    long records() {
        return records;
    }

    /** The time of the block's first record, -1 before it has one. */
    long firstTime() {
        return t0;
    }

    long lastTime() {
        return cur;
    }

    /** An enter (the caller pushed it). */
    void enter(int word, long t) {
        flushPending();
        flushExits();
        time(t);
        pending = true;
        pendingWord = word;
        records++;
    }

    /** An exit of the innermost open call (the caller popped it). */
    void exitTop(long t) {
        records++;
        if (pending && t == cur) {
            pending = false;
            delta(pendingWord, LEAF, LEAF_FAR);
            return;
        }
        flushPending();
        time(t);
        if (++exits == 64) {
            flushExits();
        }
    }

    /** An exit that is not of the innermost open call. */
    void exitWord(int word, long t) {
        records++;
        flushPending();
        flushExits();
        time(t);
        tokens.u8(EXIT_WORD);
        tokens.uvarint(word & 0xFFFFFFFFL);
    }

    /** Records that went before they were taken; the caller cleared the stack. */
    void gap(long n) {
        flushPending();
        flushExits();
        tokens.u8(GAP);
        tokens.uvarint(n);
        anyGap = true;
    }

    private void time(long t) {
        if (cur < 0) {
            t0 = t;
            cur = t;
        } else if (t != cur) {
            flushExits();
            tokens.u8(TIME);
            tokens.varint(t - cur);
            cur = t;
        }
    }

    private void flushPending() {
        if (pending) {
            pending = false;
            delta(pendingWord, ENTER, ENTER_FAR);
        }
    }

    private void delta(int word, int near, int far) {
        long d = (long) word - prev;
        prev = word;
        if (d >= -32 && d < 32) {
            tokens.u8(near + 32 + (int) d);
        } else {
            tokens.u8(far);
            tokens.varint(d);
        }
    }

    private void flushExits() {
        if (exits > 0) {
            tokens.u8(EXIT_RUN + exits - 1);
            exits = 0;
        }
    }

    /**
     * Ends the block and appends it to out: the thread, its open calls at
     * the start, the lost records, and the tokens (deflated when that
     * makes them smaller).
     */
    void finish(Bytes out, long tid, String name, boolean virtual, Deflater deflater, byte[] scratch) {
        flushPending();
        flushExits();
        out.u64(tid);
        out.str(name);
        out.u8(virtual ? TraceFile.VIRTUAL : 0);
        out.u64(lost);
        out.u32(records);
        out.u32(open);
        for (int i = 0; i < open; i++) {
            out.u32(openWords[i] & 0xFFFFFFFFL);
            out.u64(openEnters[i]);
        }
        out.u64(Math.max(t0, 0));
        int raw = tokens.n;
        if (deflater != null && raw >= DEFLATE_FROM) {
            deflater.reset();
            deflater.setInput(tokens.a, 0, raw);
            deflater.finish();
            int at = out.n;
            out.u8(DEFLATED);
            out.u32(raw);
            int lenAt = out.n;
            out.u32(0);
            int stored = 0;
            while (!deflater.finished()) {
                int k = deflater.deflate(scratch);
                out.bytes(scratch, 0, k);
                stored += k;
                if (stored >= raw) {
                    break; // no smaller: stored raw instead
                }
            }
            if (stored < raw) {
                out.u32At(lenAt, stored);
                return;
            }
            out.n = at;
        }
        out.u8(RAW);
        out.u32(raw);
        out.u32(raw);
        out.bytes(tokens.a, 0, raw);
    }
}
