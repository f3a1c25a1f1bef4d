package com.github.tracebeat.runtime;

/**
 * A compressor of the LZ4 block format, greedy and small: the stream's
 * default, twice as fast as deflate at its fastest on a thread's tokens
 * (0.23 of their size where deflate makes 0.16), which matters because
 * the monitor compresses while the program runs.
 *
 * <p>The format: sequences of a token byte (literal count in its high four
 * bits, match length less 4 in its low four; 15 in either is followed by
 * bytes that add to it, 255 each and a last below 255), the literals, and
 * a match's 16-bit little-endian offset back into what was decoded. The
 * last sequence is literals only, at least the last five bytes; no match
 * starts in the last twelve.
 */
final class Lz {
    private static final int BITS = 12;
    private final int[] table = new int[1 << BITS];

    /** The most bytes len bytes take compressed. */
    static int bound(int len) {
        return len + len / 255 + 16;
    }

    /** Compresses in[0..len) into out (at least bound(len) long); returns the length. */
    int compress(byte[] in, int len, byte[] out) {
        java.util.Arrays.fill(table, -1);
        int anchor = 0;
        int p = 0;
        int o = 0;
        int limit = len - 12;
        while (p < limit) {
            int seq = word(in, p);
            int h = (seq * -1640531535) >>> (32 - BITS);
            int ref = table[h];
            table[h] = p;
            if (ref < 0 || p - ref > 0xFFFF || word(in, ref) != seq) {
                p += 1 + ((p - anchor) >>> 6); // a long run without a match: look less often
                continue;
            }
            int m = 4;
            while (p + m < len - 5 && in[ref + m] == in[p + m]) {
                m++;
            }
            o = sequence(in, anchor, p - anchor, out, o, p - ref, m - 4);
            p += m;
            anchor = p;
        }
        return sequence(in, anchor, len - anchor, out, o, 0, -1);
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }

    /** Writes one sequence: lit literals from in[from], then (extra >= 0) a match of extra + 4 bytes offset back. */
    private static int sequence(byte[] in, int from, int lit, byte[] out, int o, int offset, int extra) {
        int token = o++;
        int t = Math.min(lit, 15) << 4;
        o = length(out, o, lit);
        System.arraycopy(in, from, out, o, lit);
        o += lit;
        if (extra >= 0) {
            out[o++] = (byte) offset;
            out[o++] = (byte) (offset >>> 8);
            t |= Math.min(extra, 15);
            o = length(out, o, extra);
        }
        out[token] = (byte) t;
        return o;
    }

    /** The bytes that add to a count of 15 or more. */
    private static int length(byte[] out, int o, int n) {
        if (n >= 15) {
            int r = n - 15;
            while (r >= 255) {
                out[o++] = (byte) 255;
                r -= 255;
            }
            out[o++] = (byte) r;
        }
        return o;
    }
}
