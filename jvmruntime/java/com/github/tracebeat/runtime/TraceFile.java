package com.github.tracebeat.runtime;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a recording. The format (big-endian; decode/RECORDING.md in the
 * tracebeat repository is its reference):
 *
 * <pre>
 * "TBREC" 0x00, u16 version (1)
 * u64 wall-clock milliseconds at the recording's start
 * u64 nanoseconds from the start to this write (the last timestamp)
 * u64 process id (0: unknown)
 * u64 memory budget in bytes
 * u32 section names, each: u32 index, u16 length, UTF-8 bytes
 * u32 threads, each: u64 thread id, u16 length, UTF-8 name,
 *     u64 records lost (overwritten, or never stored), u32 records n,
 *     n times: u64 nanoseconds since the start, u32 word
 * word: bit 31 exit, bit 30 section index (else method id), bits 0..29 id
 * </pre>
 */
final class TraceFile {
    static final int VERSION = 1;

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
            out.writeLong(s.lost);
            out.writeInt(s.words.length);
            for (int i = 0; i < s.words.length; i++) {
                out.writeLong(s.times[i]);
                out.writeInt(s.words[i]);
            }
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

    /** One thread's records, oldest first, copied while the thread may run on. */
    static final class Snapshot {
        long[] times;
        int[] words;
        long lost;

        static Snapshot of(ThreadLog log) {
            ThreadLog.Ring r;
            long c;
            do {
                r = log.ring;
                c = log.count;
            } while (r != log.ring);
            int cap = r.words.length;
            long first = Math.max(0, c - cap);
            int n = (int) (c - first);
            long[] times = new long[n];
            int[] words = new int[n];
            for (int k = 0; k < n; k++) {
                int i = (int) (first + k) & r.mask;
                times[k] = r.times[i];
                words[k] = r.words[i];
            }
            // Slots the thread reused while we copied hold newer records:
            // drop them from the front.
            long valid = first;
            if (r == log.ring && cap > 0) {
                valid = Math.max(first, log.count - cap);
            }
            int skip = (int) Math.min(n, valid - first);
            Snapshot s = new Snapshot();
            s.lost = first + skip;
            s.times = skip == 0 ? times : java.util.Arrays.copyOfRange(times, skip, n);
            s.words = skip == 0 ? words : java.util.Arrays.copyOfRange(words, skip, n);
            return s;
        }
    }
}
