package com.github.tracebeat.runtime;

/**
 * The calls of one thread that are open, as the monitor follows its
 * records: each with its word and the time it was entered. The encoder's
 * tokens and the decoder mirror it (see {@link BlockEncoder}), and the
 * slow and stall watch reads it (see {@link Watch}). An exit closes the
 * innermost open call of its word, and the calls above it with it; an
 * exit of a word that is not open changes nothing.
 */
final class CallStack {
    /** Frame flags: the watch reported the call, or a call inside it, or its stall. */
    static final int REPORTED = 1;
    static final int INNER_REPORTED = 2;
    static final int STALL_REPORTED = 4;

    int[] words = new int[16];
    long[] enters = new long[16];
    byte[] flags = new byte[16];
    int depth;

    void push(int word, long t) {
        if (depth == words.length) {
            int m = depth * 2;
            words = java.util.Arrays.copyOf(words, m);
            enters = java.util.Arrays.copyOf(enters, m);
            flags = java.util.Arrays.copyOf(flags, m);
        }
        words[depth] = word;
        enters[depth] = t;
        flags[depth] = 0;
        depth++;
    }

    boolean topIs(int word) {
        return depth > 0 && words[depth - 1] == word;
    }

    /** The index of the innermost open call of word, or -1. */
    int find(int word) {
        for (int i = depth - 1; i >= 0; i--) {
            if (words[i] == word) {
                return i;
            }
        }
        return -1;
    }

    /** Closes the call at index i and those above it; the caller's flags learn of a report inside. */
    void popTo(int i) {
        int inner = 0;
        for (int k = depth - 1; k >= i; k--) {
            inner |= flags[k] & (REPORTED | INNER_REPORTED);
        }
        depth = i;
        if (i > 0 && inner != 0) {
            flags[i - 1] |= INNER_REPORTED;
        }
    }

    void clear() {
        depth = 0;
    }
}
