package com.github.tracebeat.runtime;

import java.util.zip.Deflater;

/**
 * How a block's tokens are stored: raw, deflated, or LZ4-compressed
 * ({@link Lz}, the stream's default: it compresses twice as fast as
 * deflate, while the program runs).
 */
final class Packer {
    static final int RAW = 0;
    static final int DEFLATE = 1;
    static final int LZ = 2;
    /** Token bytes below which no compression is worth its cost. */
    private static final int FROM = 256;

    final int encoding;
    private Deflater deflater;
    private Lz lz;
    private byte[] scratch = new byte[1 << 16];

    Packer(int encoding) {
        this.encoding = encoding;
        if (encoding == DEFLATE) {
            deflater = new Deflater(1, true);
        } else if (encoding == LZ) {
            lz = new Lz();
        }
    }

    /** The stream's packer, as tracebeat.compress says. */
    static Packer forStream() {
        return new Packer(Settings.COMPRESS);
    }

    /**
     * Appends len token bytes to into: the encoding byte, the raw length,
     * the stored length and the stored bytes (compressed when that makes
     * them smaller).
     */
    void pack(byte[] tokens, int len, Bytes into) {
        if (encoding != RAW && len >= FROM) {
            int stored = -1;
            if (encoding == LZ) {
                int bound = Lz.bound(len);
                if (scratch.length < bound) {
                    scratch = new byte[bound];
                }
                stored = lz.compress(tokens, len, scratch);
            } else {
                stored = deflate(tokens, len);
            }
            if (stored >= 0 && stored < len) {
                into.u8(encoding);
                into.u32(len);
                into.u32(stored);
                into.bytes(scratch, 0, stored);
                return;
            }
        }
        into.u8(RAW);
        into.u32(len);
        into.u32(len);
        into.bytes(tokens, 0, len);
    }

    /** Deflates into scratch; -1 when the result is no smaller. */
    private int deflate(byte[] tokens, int len) {
        if (scratch.length < len) {
            scratch = new byte[len];
        }
        deflater.reset();
        deflater.setInput(tokens, 0, len);
        deflater.finish();
        int n = 0;
        while (!deflater.finished() && n < len) {
            n += deflater.deflate(scratch, n, len - n);
        }
        return deflater.finished() ? n : -1;
    }

    void end() {
        if (deflater != null) {
            deflater.end();
        }
    }
}
