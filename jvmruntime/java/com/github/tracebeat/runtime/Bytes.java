package com.github.tracebeat.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A growable byte array with the writes the recording format needs:
 * big-endian numbers, strings (u16 length, UTF-8) and varints (7 bits a
 * byte, low first, as Go's encoding/binary reads them).
 */
final class Bytes {
    byte[] a;
    int n;

    Bytes(int capacity) {
        a = new byte[Math.max(16, capacity)];
    }

    void clear() {
        n = 0;
    }

    private void room(int more) {
        if (n + more > a.length) {
            byte[] b = new byte[Math.max(n + more, a.length * 2)];
            System.arraycopy(a, 0, b, 0, n);
            a = b;
        }
    }

    void u8(int v) {
        room(1);
        a[n++] = (byte) v;
    }

    void u16(int v) {
        room(2);
        a[n++] = (byte) (v >>> 8);
        a[n++] = (byte) v;
    }

    void u32(long v) {
        room(4);
        a[n++] = (byte) (v >>> 24);
        a[n++] = (byte) (v >>> 16);
        a[n++] = (byte) (v >>> 8);
        a[n++] = (byte) v;
    }

    void u64(long v) {
        u32(v >>> 32);
        u32(v);
    }

    /** Overwrites 4 bytes at off (a length known only later). */
    void u32At(int off, long v) {
        a[off] = (byte) (v >>> 24);
        a[off + 1] = (byte) (v >>> 16);
        a[off + 2] = (byte) (v >>> 8);
        a[off + 3] = (byte) v;
    }

    void uvarint(long v) {
        room(10);
        while ((v & ~0x7FL) != 0) {
            a[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        a[n++] = (byte) v;
    }

    /** A signed number as Go's binary.AppendVarint writes it (zigzag). */
    void varint(long v) {
        uvarint((v << 1) ^ (v >> 63));
    }

    void str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int len = Math.min(b.length, 0xFFFF);
        u16(len);
        bytes(b, 0, len);
    }

    void bytes(byte[] b, int off, int len) {
        room(len);
        System.arraycopy(b, off, a, n, len);
        n += len;
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(a, 0, n);
    }
}
