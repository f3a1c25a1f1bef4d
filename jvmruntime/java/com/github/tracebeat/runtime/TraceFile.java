package com.github.tracebeat.runtime;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a recording. The format (big-endian; decode/recording/RECORDING.md in the
 * tracebeat repository is its reference):
 *
 * <pre>
 * "TBREC" 0x00, u16 version (3)
 * u64 wall-clock milliseconds at the recording's start
 * u64 nanoseconds from the start to this write (the last timestamp)
 * u64 process id (0: unknown)
 * u64 memory budget in bytes
 * u8 clock (0 precise, 1 shared), u64 tick nanoseconds, u32 records between
 *     reads, u64 how late a time may be in nanoseconds (see Clock)
 * u16 build ids, each: u16 length, UTF-8 bytes (see BuildIds)
 * u32 section names, each: u32 index, u16 length, UTF-8 bytes
 * u32 threads, each: u64 thread id, u16 length, UTF-8 name, u8 flags
 *     (bit 0: a virtual thread),
 *     u64 records lost (overwritten, never stored, or before the first time
 *     mark), u32 records, u32 slots n, n times u32 slot (see ThreadLog: a
 *     word, or half of a time mark; the first slot starts a mark)
 * word: bit 31 exit, bit 30 section index (else method id), bits 0..29 id
 * </pre>
 */
final class TraceFile {
    static final int VERSION = 3;
    /** Thread flag: a virtual thread (Java 21). */
    static final int VIRTUAL = 1;

    private TraceFile() {
    }

    static void write(String file, List<ThreadLog> logs, long endNanos) throws IOException {
        Path target = new File(file).getAbsoluteFile().toPath();
        Path dir = target.getParent();
        // Not Files.createTempFile: its file is private (rw-------), and the
        // trace should get the permissions any new file of the user gets.
        Path tmp = dir.resolve("." + target.getFileName() + "." + pid() + "-" + System.nanoTime() + ".tmp");
        boolean done = false;
        try {
            FileOutputStream stream;
            try {
                stream = new FileOutputStream(tmp.toFile());
            } catch (IOException e) {
                // The message would name the temporary file; the user
                // named the trace, and its folder is what is wrong.
                throw new IOException(explain(dir), e);
            }
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(stream, 1 << 16));
            try {
                writeTo(out, logs, endNanos);
            } finally {
                out.close();
            }
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** Why no file can be created in dir, in a user's words. */
    private static String explain(Path dir) {
        File d = dir.toFile();
        if (!d.exists()) {
            return "the folder " + dir + " does not exist";
        }
        if (!d.isDirectory()) {
            return dir + " is not a folder";
        }
        return "cannot create a file in " + dir + " (permissions, or a full disk?)";
    }

    private static void writeTo(DataOutputStream out, List<ThreadLog> logs, long endNanos) throws IOException {
        out.write(new byte[] {'T', 'B', 'R', 'E', 'C', 0});
        out.writeShort(VERSION);
        out.writeLong(Recorder.START_EPOCH_MILLIS);
        out.writeLong(endNanos);
        out.writeLong(pid());
        out.writeLong(Recorder.BUDGET);
        boolean shared = Recorder.CLOCK_MODE == Clock.MODE_SHARED;
        out.writeByte(Recorder.CLOCK_MODE);
        out.writeLong(shared ? Clock.TICK_NANOS : 0);
        out.writeInt(shared ? Clock.READ_EVERY : 1);
        out.writeLong(shared ? Clock.worstLate() : 0);
        List<String> builds = BuildIds.find();
        out.writeShort(builds.size());
        for (String id : builds) {
            writeString(out, id);
        }
        Map<Integer, String> sections = new TreeMap<Integer, String>(Recorder.SECTION_NAMES);
        out.writeInt(sections.size());
        for (Map.Entry<Integer, String> e : sections.entrySet()) {
            out.writeInt(e.getKey());
            writeString(out, e.getValue());
        }
        out.writeInt(logs.size());
        for (ThreadLog log : logs) {
            Snapshot s = Snapshot.of(log);
            out.writeLong(log.threadId);
            writeString(out, log.name());
            out.writeByte(log.virtual ? VIRTUAL : 0);
            out.writeLong(s.lost);
            out.writeInt(s.records);
            out.writeInt(s.len);
            s.writeTo(out);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int n = Math.min(b.length, 0xFFFF);
        out.writeShort(n);
        out.write(b, 0, n);
    }

    private static long pid() {
        try {
            String name = ManagementFactory.getRuntimeMXBean().getName(); // "pid@host"
            int at = name.indexOf('@');
            return Long.parseLong(at > 0 ? name.substring(0, at) : name);
        } catch (Throwable e) {
            return 0;
        }
    }

    /**
     * One thread's slots (see {@link ThreadLog}), oldest first, from its
     * first whole time mark: logical slot k is a[off + k] for k below len1,
     * else a[k - len1] (a ring that wrapped). The slots of a thread that
     * still runs are a copy; those of a thread that ended (or that writes
     * the file) are its ring itself, which no longer changes: at exit that
     * saves copying the whole budget.
     */
    static final class Snapshot {
        int[] a;
        int off;
        int len1;
        int len;
        int records;
        long lost;

        static Snapshot of(ThreadLog log) {
            Snapshot done = log.retired;
            if (done != null) {
                return done;
            }
            Thread owner = log.thread.get();
            boolean still = owner == null || !owner.isAlive() || owner == Thread.currentThread();
            Snapshot snap = new Snapshot();
            int[] r;
            long c;
            long marks;
            long base;
            do {
                r = log.ring;
                c = log.count;
                marks = log.marks;
                base = log.base;
            } while (r != log.ring);
            if (r.length == 0 && log.retired != null) {
                return log.retired; // given back while we looked
            }
            int cap = r.length;
            long first = Math.max(base, c - cap);
            int n = (int) (c - first);
            int skip = 0;
            if (still || cap == 0) {
                snap.a = r;
                snap.off = cap == 0 ? 0 : (int) first & (cap - 1);
                snap.len1 = Math.min(n, cap - snap.off);
            } else {
                int[] copy = new int[n];
                for (int k = 0; k < n; k++) {
                    copy[k] = r[(int) (first + k) & (cap - 1)];
                }
                // Slots the thread reused while we copied hold newer
                // records: drop them from the front.
                if (r == log.ring) {
                    skip = (int) Math.min(n, Math.max(first, log.count - cap) - first);
                }
                snap.a = copy;
                snap.len1 = n;
            }
            snap.len = n;
            snap.startAtMark(skip);
            snap.lost = Math.max(0, c - marks - snap.records);
            return snap;
        }

        /** The same records in an array of their own, for a thread that ended. */
        Snapshot compact() {
            Snapshot c = new Snapshot();
            c.a = new int[len];
            for (int k = 0; k < len; k++) {
                c.a[k] = slot(k);
            }
            c.len1 = len;
            c.len = len;
            c.records = records;
            c.lost = lost;
            return c;
        }

        int slot(int k) {
            return k < len1 ? a[off + k] : a[k - len1];
        }

        /**
         * Drops the slots before the first whole time mark at or after
         * from (the records there have no time), and counts the records
         * kept.
         */
        void startAtMark(int from) {
            int start = len;
            for (int k = from; k + 1 < len; k++) {
                if ((slot(k) & (ThreadLog.MARK_BITS | ThreadLog.MARK_PART)) == ThreadLog.MARK_HIGH
                    && (slot(k + 1) & (ThreadLog.MARK_BITS | ThreadLog.MARK_PART)) == ThreadLog.MARK_LOW) {
                    start = k;
                    break;
                }
            }
            if (start <= len1) {
                off += start;
                len1 -= start;
            } else {
                off = start - len1;
                len1 = len - start;
            }
            len -= start;
            records = 0;
            for (int k = 0; k < len; k++) {
                if ((slot(k) & ThreadLog.MARK_BITS) != ThreadLog.MARK_BITS) {
                    records++;
                }
            }
        }

        /** Writes the slots big-endian, a block at a time. */
        void writeTo(DataOutputStream out) throws IOException {
            ByteBuffer block = ByteBuffer.allocate(1 << 16);
            IntBuffer ints = block.asIntBuffer();
            writeRange(out, block, ints, off, len1);
            writeRange(out, block, ints, 0, len - len1);
        }

        private void writeRange(DataOutputStream out, ByteBuffer block, IntBuffer ints, int from, int n) throws IOException {
            for (int i = 0; i < n; i += ints.capacity()) {
                int m = Math.min(ints.capacity(), n - i);
                ints.clear();
                ints.put(a, from + i, m);
                out.write(block.array(), 0, m * 4);
            }
        }
    }
}
