package com.github.tracebeat.runtime;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * Writes recordings, format version 4 (big-endian; decode/recording/RECORDING.md
 * in the tracebeat repository is its reference): a header, then chunks,
 * each framed and checked on its own, so that a file cut anywhere (a kill,
 * a full disk, a copy interrupted) or damaged in one place reads up to
 * there, and a stream can lose its oldest chunks to a size bound.
 *
 * <pre>
 * "TBREC" 0x00, u16 version (4)
 * u64 wall-clock milliseconds at the start, u64 process id, u64 budget bytes
 * u8 clock (0 precise, 1 shared), u64 tick ns, u32 records between reads
 * u8 kind (0 written at exit, 1 stream, 2 dump, 3 report, 4 Recorder.write)
 * u8 time source (0 System.nanoTime, 1 SystemClock.elapsedRealtimeNanos), u64 the source's value at the start
 * chunks: "TBCK", u8 type, u32 payload length, u32 CRC-32 of type and payload, payload
 * </pre>
 *
 * The chunk types are in {@link #BUILDS} and the constants after it; the
 * tokens of a data chunk's blocks in {@link TokenSink}.
 */
final class TraceFile {
    static final int VERSION = 4;
    /** Thread flag: a virtual thread (Java 21). */
    static final int VIRTUAL = 1;

    static final int KIND_EXIT = 0;
    static final int KIND_STREAM = 1;
    static final int KIND_DUMP = 2;
    static final int KIND_REPORT = 3;
    static final int KIND_WRITE = 4;

    /** u16 count, each a string: the builds the program runs (see {@link BuildIds}). */
    static final int BUILDS = 'B';
    /** u32 count, each u32 index and string: names of sections that are not method ids. */
    static final int SECTIONS = 'N';
    /**
     * u64 sequence, u64 first and u64 last time of its records, u64 how late a time may be so far,
     * u32 blocks, each: u64 thread id, string name, u8 flags, u64 records lost just before,
     * u32 records, u32 open calls, each u32 word and u64 time entered, u64 the first record's time,
     * u8 encoding (0 raw, 1 deflate, 2 LZ4 block), u32 token bytes, u32 stored bytes, the stored bytes.
     */
    static final int DATA = 'T';
    /** u64 chunks, u64 records, u64 first and u64 last time, u8 why (1 size, 2 age): what a stream's bounds took. */
    static final int DROPPED = 'D';
    /** u8 kind (1 slow, 2 stall), u64 thread id, string name, u32 word, u64 entered, u64 end, u64 threshold, u64 window start, u64 window end. */
    static final int REPORT = 'R';
    /** u64 end (ns from the start), u64 how late a time may be, u8 why (see the kinds). */
    static final int FOOTER = 'F';
    /**
     * u64 how late a time may be (the worst), u64 the records' lateness added
     * up (ns), u64 the records counted: their mean is the typical lateness.
     */
    static final int CLOCK = 'C';

    static final byte[] CHUNK_MAGIC = {'T', 'B', 'C', 'K'};
    static final int CHUNK_HEADER = 13;

    /** A snapshot's block ends after this many token bytes, its chunk after this many bytes: a cut file loses one chunk. */
    static final int BLOCK_TOKENS = 1 << 20;
    static final int CHUNK_BYTES = 1 << 20;

    static final int REPORT_SLOW = 1;
    static final int REPORT_STALL = 2;
    /** Android: a main-looper message still running after tracebeat.anr. */
    static final int REPORT_ANR = 3;
    /**
     * Android: the cold start. entered: when the application was made (0:
     * unknown); end: the first Activity's first focus; threshold: how long
     * before the recording the process started (0: unknown).
     */
    static final int REPORT_STARTUP = 4;
    /**
     * Android: a warm start. entered: when an Activity was created with no
     * other Activity of the app alive, after the cold start; end: its first
     * focus.
     */
    static final int REPORT_WARM = 5;

    private TraceFile() {
    }

    static Bytes header(int kind) {
        Bytes b = new Bytes(64);
        b.bytes(new byte[] {'T', 'B', 'R', 'E', 'C', 0}, 0, 6);
        b.u16(VERSION);
        b.u64(Recorder.START_EPOCH_MILLIS);
        b.u64(pid());
        b.u64(Settings.BUDGET);
        boolean shared = Recorder.CLOCK_MODE == Clock.MODE_SHARED;
        b.u8(Recorder.CLOCK_MODE);
        b.u64(shared ? Clock.TICK_NANOS : 0);
        b.u32(shared ? Clock.READ_EVERY : 1);
        b.u8(kind);
        b.u8(Platform.TIME_SOURCE);
        b.u64(Clock.START_NANOS);
        return b;
    }

    /** Writes one chunk: its frame, then the payload. */
    static void chunk(OutputStream out, int type, Bytes payload) throws IOException {
        CRC32 crc = new CRC32();
        crc.update(type);
        crc.update(payload.a, 0, payload.n);
        Bytes h = new Bytes(CHUNK_HEADER);
        h.bytes(CHUNK_MAGIC, 0, 4);
        h.u8(type);
        h.u32(payload.n);
        h.u32(crc.getValue());
        h.writeTo(out);
        payload.writeTo(out);
    }

    static Bytes builds() {
        List<String> ids = BuildIds.find();
        Bytes b = new Bytes(64);
        b.u16(ids.size());
        for (String id : ids) {
            b.str(id);
        }
        return b;
    }

    /** The section names not in written yet (all of them when written is null); null when there are none. */
    static Bytes sections(BitSet written) {
        Map<Integer, String> all = new TreeMap<Integer, String>(Recorder.SECTION_NAMES);
        Bytes b = new Bytes(64);
        b.u32(0);
        int n = 0;
        for (Map.Entry<Integer, String> e : all.entrySet()) {
            if (written != null && written.get(e.getKey())) {
                continue;
            }
            b.u32(e.getKey());
            b.str(e.getValue());
            if (written != null) {
                written.set(e.getKey());
            }
            n++;
        }
        b.u32At(0, n);
        return n == 0 ? null : b;
    }

    static Bytes clock() {
        long[] late = Recorder.lateness();
        Bytes b = new Bytes(24);
        b.u64(Clock.bound());
        b.u64(late[0]);
        b.u64(late[1]);
        return b;
    }

    static Bytes footer(long end, int why) {
        Bytes b = new Bytes(24);
        b.u64(end);
        b.u64(Clock.bound());
        b.u8(why);
        return b;
    }

    /** What a report says of itself; null for other files. */
    static final class Report {
        int kind;
        long tid;
        String thread;
        int word;
        long entered;
        long end;
        long threshold;
        long from;
        long to;

        Bytes bytes() {
            Bytes b = new Bytes(64);
            b.u8(kind);
            b.u64(tid);
            b.str(thread);
            b.u32(word & 0xFFFFFFFFL);
            b.u64(entered);
            b.u64(end);
            b.u64(threshold);
            b.u64(from);
            b.u64(to);
            return b;
        }
    }

    /**
     * Writes what the rings hold now, of the records from from to to, to
     * file (replaced as a whole: written to a temporary file next to it,
     * then renamed); returns its size. Threads keep recording meanwhile.
     */
    static long writeSnapshot(String file, final List<ThreadLog> logs, final int kind, final long from, final long to, final Report report)
        throws IOException {
        return replace(file, new Body() {
            @Override
            public void writeTo(OutputStream out) throws IOException {
                header(kind).writeTo(out);
                chunk(out, BUILDS, builds());
                Bytes names = sections(null);
                if (names != null) {
                    chunk(out, SECTIONS, names);
                }
                if (report != null) {
                    chunk(out, REPORT, report.bytes());
                }
                new SnapshotWriter(out, from, to).write(logs);
                chunk(out, CLOCK, clock());
                chunk(out, FOOTER, footer(Clock.now(), kind));
            }
        });
    }

    /** What {@link #replace} writes. */
    interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes body to file through a temporary file next to it, renamed over it at the end; returns the size. */
    static long replace(String file, Body body) throws IOException {
        File target = new File(file).getAbsoluteFile();
        File dir = target.getParentFile();
        // Not Files.createTempFile: its file is private (rw-------), and the
        // trace should get the permissions any new file of the user gets.
        File tmp = new File(dir, "." + target.getName() + "." + pid() + "-" + System.nanoTime() + ".tmp");
        boolean done = false;
        try {
            FileOutputStream stream;
            try {
                stream = new FileOutputStream(tmp);
            } catch (IOException e) {
                // The message would name the temporary file; the user
                // named the trace, and its folder is what is wrong.
                throw new IOException(explain(dir), e);
            }
            OutputStream out = new BufferedOutputStream(stream, 1 << 16);
            try {
                body.writeTo(out);
            } finally {
                out.close();
            }
            long size = tmp.length();
            move(tmp, target);
            done = true;
            return size;
        } finally {
            if (!done) {
                tmp.delete();
            }
        }
    }

    /** Renames from over to: java.nio.file's atomic move where there is one, else java.io's rename (POSIX: atomic too). */
    static void move(File from, File to) throws IOException {
        if (Platform.NIO_FILES) {
            NioFiles.move(from, to);
        } else if (!from.renameTo(to)) {
            throw new IOException("cannot rename " + from + " to " + to);
        }
    }

    /** Why no file can be created in dir, in a user's words. */
    static String explain(File dir) {
        if (!dir.exists()) {
            return "the folder " + dir + " does not exist";
        }
        if (!dir.isDirectory()) {
            return dir + " is not a folder";
        }
        return "cannot create a file in " + dir + " (permissions, or a full disk?)";
    }

    private static long pidCache = -1;

    static long pid() {
        if (pidCache >= 0) {
            return pidCache;
        }
        long pid = 0;
        try {
            String name = ManagementFactory.getRuntimeMXBean().getName(); // "pid@host"
            int at = name.indexOf('@');
            pid = Long.parseLong(at > 0 ? name.substring(0, at) : name);
        } catch (Throwable e) {
            pid = 0;
        }
        pidCache = pid;
        return pid;
    }

    /**
     * Encodes the rings' records into data chunks: each thread's records of
     * the window, its calls open at the window's start first.
     */
    static final class SnapshotWriter {
        private final OutputStream out;
        private final long from;
        private final long to;
        // Not compressed: what the rings hold is bounded by the budget (16
        // MiB of slots make about 4.5 MB of tokens), and a file at exit
        // holds the program's exit up: deflate took a quarter second there.
        private final Packer packer = new Packer(Packer.RAW);
        private final int[] buf = new int[1 << 14];
        private final Bytes payload = new Bytes(CHUNK_BYTES + (1 << 16));
        private long seq;
        private int blocks;
        private long first = Long.MAX_VALUE;
        private long last;

        SnapshotWriter(OutputStream out, long from, long to) {
            this.out = out;
            this.from = from;
            this.to = to;
        }

        void write(List<ThreadLog> logs) throws IOException {
            try {
                startChunk();
                for (ThreadLog log : logs) {
                    thread(log, Snapshot.of(log));
                }
                endChunk();
            } finally {
                packer.end();
            }
        }

        /** One thread's slots, a block at a time: a block ends after BLOCK_TOKENS bytes of tokens. */
        private void thread(ThreadLog log, Snapshot s) throws IOException {
            TokenSink sink = new TokenSink(log, null, true);
            sink.window(from, to);
            if (from == 0) {
                sink.lostBefore(s.lost);
            }
            String name = log.name();
            for (int k = 0; k < s.len;) {
                int m = Math.min(buf.length, s.len - k);
                for (int i = 0; i < m; i++) {
                    buf[i] = s.slot(k + i);
                }
                sink.slots(buf, 0, m);
                k += m;
                if (sink.size() >= BLOCK_TOKENS) {
                    block(sink, name);
                }
            }
            if (!sink.empty()) {
                block(sink, name);
            } else if (from == 0 && s.lost > 0) {
                sink.begin(s.lost); // a thread whose records all went: its count
                block(sink, name);
            }
        }

        private void block(TokenSink sink, String name) throws IOException {
            if (sink.firstTime() >= 0) {
                first = Math.min(first, sink.firstTime());
                last = Math.max(last, sink.lastTime());
            }
            sink.finish(payload, name, packer);
            blocks++;
            if (payload.n >= CHUNK_BYTES) {
                endChunk();
                startChunk();
            }
        }

        private void startChunk() {
            payload.clear();
            payload.u64(seq++);
            payload.u64(0);
            payload.u64(0);
            payload.u64(Clock.bound());
            payload.u32(0);
            blocks = 0;
            first = Long.MAX_VALUE;
            last = 0;
        }

        private void endChunk() throws IOException {
            if (blocks == 0) {
                return;
            }
            fillChunkHeader(payload, first == Long.MAX_VALUE ? 0 : first, last, blocks);
            chunk(out, DATA, payload);
        }
    }

    /** Sets a data chunk's times and block count, written as zeros at its start. */
    static void fillChunkHeader(Bytes payload, long first, long last, int blocks) {
        payload.u32At(8, first >>> 32);
        payload.u32At(12, first);
        payload.u32At(16, last >>> 32);
        payload.u32At(20, last);
        payload.u32At(32, blocks);
    }

    /**
     * One thread's slots (see {@link ThreadLog}), oldest first, from its
     * first whole time mark: logical slot k is a[off + k] for k below len1,
     * else a[k - len1] (a ring that wrapped); slot k was the thread's slot
     * number first + k. The slots of a thread that still runs are a copy;
     * those of a thread that ended (or that writes the file) are its ring
     * itself, which no longer changes: at exit that saves copying the
     * whole budget.
     */
    static final class Snapshot {
        int[] a;
        int off;
        int len1;
        int len;
        int records;
        long lost;
        long first;

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
                // Two block copies (the ring may wrap): a thread that makes
                // hundreds of millions of records a second overwrites a
                // 16 MiB ring in a few milliseconds, a slot-by-slot copy
                // takes longer than that.
                int[] copy = new int[n];
                int at = (int) first & (cap - 1);
                int part = Math.min(n, cap - at);
                System.arraycopy(r, at, copy, 0, part);
                System.arraycopy(r, 0, copy, part, n - part);
                // Slots the thread reused while we copied hold newer
                // records: drop them from the front.
                if (r == log.ring) {
                    skip = (int) Math.min(n, Math.max(first, log.count - cap) - first);
                }
                snap.a = copy;
                snap.len1 = n;
            }
            snap.len = n;
            snap.first = first;
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
            c.first = first;
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
            first += start;
            records = 0;
            for (int k = 0; k < len; k++) {
                if ((slot(k) & ThreadLog.MARK_BITS) != ThreadLog.MARK_BITS) {
                    records++;
                }
            }
        }
    }
}
