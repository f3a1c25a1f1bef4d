package com.github.tracebeat.runtime;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The whole run (tracebeat.mode=stream): the monitor takes every thread's
 * records as they come ({@link Cursor}) and this appends them to the file
 * as chunks, one about every {@link Settings#FLUSH_NANOS}. A chunk goes to
 * the operating system whole when it is written, so a program killed at
 * any moment (kill -9, the OOM killer) leaves a file that reads up to its
 * last chunk.
 *
 * <p>The file is bounded like a JFR repository: past
 * {@link Settings#MAX_SIZE} bytes, or once its oldest chunk is older than
 * {@link Settings#MAX_AGE_NANOS}, it is written anew (a temporary file
 * renamed over it) with its newest chunks only (half the bound), and a
 * chunk that says what went. Each chunk carries the calls open at its
 * start, so what remains decodes on its own.
 */
final class Stream {
    /** A data chunk in the file. */
    private static final class Ref {
        long offset;
        long length;
        long first;
        long last;
        long records;
    }

    final String path;
    private final File file;
    private OutputStream out;
    private long size;
    private long seq;
    private final BitSet sectionsWritten = new BitSet();
    private final List<Ref> chunks = new ArrayList<Ref>();
    private long droppedChunks;
    private long droppedRecords;
    private long droppedFirst = -1;
    private long droppedLast;
    private int droppedWhy;
    private final Bytes payload = new Bytes(1 << 16);
    private final Packer packer = Packer.forStream();
    /** Once the file cannot be written: the tokens only copied, to be dropped (no compression for nothing). */
    private final Packer dropping = new Packer(Packer.RAW);
    private boolean failed;
    private boolean rollRefused;
    long lastChunkAt;

    private Stream(String path) {
        this.path = path;
        this.file = new File(path).getAbsoluteFile();
    }

    /** Starts the file: the header and the builds (null, with a line on stderr, when it cannot be created). */
    static Stream open(String path) {
        Stream s = new Stream(path);
        try {
            s.out = new FileOutputStream(s.file);
            Bytes h = TraceFile.header(TraceFile.KIND_STREAM);
            h.writeTo(s.out);
            s.size = h.n;
            s.append(TraceFile.BUILDS, TraceFile.builds());
            return s;
        } catch (IOException e) {
            Settings.warn("cannot write the recording to " + path + ": " + why(e, s.file));
            return null;
        }
    }

    private static String why(IOException e, File f) {
        File dir = f.getParentFile();
        if (dir != null && !dir.isDirectory()) {
            return TraceFile.explain(dir);
        }
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** Bytes of tokens the sinks hold that no chunk has yet. */
    static long held(List<TokenSink> sinks) {
        long n = 0;
        for (TokenSink t : sinks) {
            n += t.size();
        }
        return n;
    }

    /** Writes what the sinks hold as one data chunk (none when they hold nothing), then keeps the bounds. */
    void chunk(List<TokenSink> sinks, long now) {
        lastChunkAt = now;
        payload.clear();
        payload.u64(seq);
        payload.u64(0);
        payload.u64(0);
        payload.u64(Clock.bound());
        payload.u32(0);
        int blocks = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        long records = 0;
        for (TokenSink t : sinks) {
            if (t.empty()) {
                continue;
            }
            if (t.firstTime() >= 0) {
                first = Math.min(first, t.firstTime());
                last = Math.max(last, t.lastTime());
            }
            records += t.records();
            t.finish(payload, t.log.name(), failed ? dropping : packer);
            blocks++;
        }
        // A stream that cannot write still takes the sinks' tokens (lost):
        // held, they would grow for the rest of the run.
        if (blocks == 0 || failed) {
            return;
        }
        if (first == Long.MAX_VALUE) {
            first = last;
        }
        TraceFile.fillChunkHeader(payload, first, last, blocks);
        try {
            Bytes names = TraceFile.sections(sectionsWritten);
            if (names != null) {
                append(TraceFile.SECTIONS, names);
            }
            append(TraceFile.CLOCK, TraceFile.clock());
            Ref r = new Ref();
            r.offset = size;
            r.first = first;
            r.last = last;
            r.records = records;
            append(TraceFile.DATA, payload);
            r.length = size - r.offset;
            chunks.add(r);
            seq++;
            keepBounds(now);
        } catch (IOException e) {
            failed = true;
            Settings.warn("cannot write to " + path + " (" + e.getMessage() + "); the recording stops here");
        }
    }

    private void append(int type, Bytes b) throws IOException {
        TraceFile.chunk(out, type, b);
        size += TraceFile.CHUNK_HEADER + b.n;
    }

    /** Ends the file: the footer says it is whole. */
    void close(long end, int why) {
        if (failed) {
            return;
        }
        try {
            append(TraceFile.BUILDS, TraceFile.builds()); // classes loaded since the start may name more
            append(TraceFile.CLOCK, TraceFile.clock());
            append(TraceFile.FOOTER, TraceFile.footer(end, why));
            out.close();
        } catch (IOException e) {
            Settings.warn("cannot finish " + path + ": " + e.getMessage());
        } finally {
            failed = true;
            packer.end();
        }
    }

    /** A copy of the file as it is, with a footer: a whole recording up to now (a dump, Recorder.write). */
    long copy(String to, final int why) throws IOException {
        final long upTo = size;
        return TraceFile.replace(to, new TraceFile.Body() {
            @Override
            public void writeTo(OutputStream o) throws IOException {
                copyRange(o, 0, upTo);
                TraceFile.chunk(o, TraceFile.CLOCK, TraceFile.clock());
                TraceFile.chunk(o, TraceFile.FOOTER, TraceFile.footer(Clock.now(), why));
            }
        });
    }

    /** A report: the header, names, the report's chunk, then every data chunk with records in its window. */
    long report(String to, final TraceFile.Report report) throws IOException {
        return TraceFile.replace(to, new TraceFile.Body() {
            @Override
            public void writeTo(OutputStream o) throws IOException {
                TraceFile.header(TraceFile.KIND_REPORT).writeTo(o);
                TraceFile.chunk(o, TraceFile.BUILDS, TraceFile.builds());
                Bytes names = TraceFile.sections(null);
                if (names != null) {
                    TraceFile.chunk(o, TraceFile.SECTIONS, names);
                }
                TraceFile.chunk(o, TraceFile.REPORT, report.bytes());
                for (Ref r : chunks) {
                    if (r.last >= report.from && r.first <= report.to) {
                        copyRange(o, r.offset, r.offset + r.length);
                    }
                }
                TraceFile.chunk(o, TraceFile.CLOCK, TraceFile.clock());
                TraceFile.chunk(o, TraceFile.FOOTER, TraceFile.footer(Clock.now(), TraceFile.KIND_REPORT));
            }
        });
    }

    private void copyRange(OutputStream o, long from, long to) throws IOException {
        try (RandomAccessFile in = new RandomAccessFile(file, "r")) {
            in.seek(from);
            byte[] b = new byte[1 << 16];
            for (long left = to - from; left > 0;) {
                int n = in.read(b, 0, (int) Math.min(b.length, left));
                if (n < 0) {
                    throw new IOException(file + " ends at byte " + (to - left));
                }
                o.write(b, 0, n);
                left -= n;
            }
        }
    }

    /** Writes the file anew without its oldest chunks when it passed its size or age bound. */
    private void keepBounds(long now) throws IOException {
        int from = 0;
        int why = 0;
        if (Settings.MAX_SIZE > 0 && size > Settings.MAX_SIZE) {
            long kept = 0;
            from = chunks.size();
            while (from > 1 && kept + chunks.get(from - 1).length <= Settings.MAX_SIZE / 2) {
                kept += chunks.get(--from).length;
            }
            from = Math.min(from, chunks.size() - 1);
            why = 1;
        }
        if (Settings.MAX_AGE_NANOS > 0) {
            int old = 0;
            while (old < chunks.size() - 1 && now - chunks.get(old).last > Settings.MAX_AGE_NANOS) {
                old++;
            }
            if (old > from) {
                from = old;
                why = 2;
            }
        }
        if (from <= 0 || rollRefused && size < 2 * Math.max(Settings.MAX_SIZE, 1)) {
            return;
        }
        roll(from, why);
    }

    private void roll(final int from, int why) throws IOException {
        out.close();
        final List<Ref> kept = new ArrayList<Ref>(chunks.subList(from, chunks.size()));
        long records = 0;
        for (int i = 0; i < from; i++) {
            Ref r = chunks.get(i);
            records += r.records;
            if (droppedFirst < 0) {
                droppedFirst = r.first;
            }
            droppedLast = Math.max(droppedLast, r.last);
        }
        final long nextChunks = droppedChunks + from;
        final long nextRecords = droppedRecords + records;
        final int nextWhy = why;
        final long[] offsets = new long[kept.size()];
        final BitSet named = new BitSet();
        final Bytes names = TraceFile.sections(named);
        try {
            TraceFile.replace(path, new TraceFile.Body() {
                @Override
                public void writeTo(OutputStream o) throws IOException {
                    long at = 0;
                    Bytes h = TraceFile.header(TraceFile.KIND_STREAM);
                    h.writeTo(o);
                    at += h.n;
                    Bytes[] parts = {TraceFile.builds(), names, dropped(nextChunks, nextRecords, nextWhy)};
                    int[] types = {TraceFile.BUILDS, TraceFile.SECTIONS, TraceFile.DROPPED};
                    for (int i = 0; i < parts.length; i++) {
                        if (parts[i] != null) {
                            TraceFile.chunk(o, types[i], parts[i]);
                            at += TraceFile.CHUNK_HEADER + parts[i].n;
                        }
                    }
                    for (int i = 0; i < kept.size(); i++) {
                        Ref r = kept.get(i);
                        offsets[i] = at;
                        copyRange(o, r.offset, r.offset + r.length);
                        at += r.length;
                    }
                }
            });
        } catch (IOException e) {
            // Another program holds the file (Windows refuses to replace
            // it then): go on appending, and try again later.
            if (!rollRefused) {
                Settings.warn("cannot bound " + path + " (" + e.getMessage() + "); it grows until it can");
            }
            rollRefused = true;
            out = new FileOutputStream(file, true);
            return;
        }
        rollRefused = false;
        droppedChunks = nextChunks;
        droppedRecords = nextRecords;
        droppedWhy = nextWhy;
        chunks.clear();
        for (int i = 0; i < kept.size(); i++) {
            Ref r = kept.get(i);
            r.offset = offsets[i];
            chunks.add(r);
        }
        size = file.length();
        out = new FileOutputStream(file, true);
        sectionsWritten.clear();
        sectionsWritten.or(named);
    }

    private Bytes dropped(long n, long records, int why) {
        Bytes b = new Bytes(40);
        b.u64(n);
        b.u64(records);
        b.u64(Math.max(droppedFirst, 0));
        b.u64(droppedLast);
        b.u8(why);
        return b;
    }
}
