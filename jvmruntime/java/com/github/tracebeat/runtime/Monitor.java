package com.github.tracebeat.runtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The recorder's own thread, "tracebeat-monitor": in stream mode it takes
 * every thread's records as they come and writes them
 * ({@link Stream}); with tracebeat.slow or tracebeat.stall it follows every
 * thread's calls ({@link Watch}) and writes the reports; in every mode it
 * answers dump requests ({@link Triggers}) and gives a thread that finds
 * the budget spent room from the largest ring. The recorded threads never
 * wait for it, except in stream mode when a ring is full of records it has
 * not taken.
 */
final class Monitor implements Runnable {
    /** Held by whatever writes a file: the monitor's steps, a dump, Recorder.write, the exit. */
    static final ReentrantLock IO = new ReentrantLock();
    /** Logs that started since the monitor last looked (only while it follows threads). */
    static final ConcurrentLinkedQueue<ThreadLog> FRESH = new ConcurrentLinkedQueue<ThreadLog>();

    /** How often triggers are looked for. */
    static final long TRIGGER_EVERY_NANOS = 100000000L;
    /** How often the stream's monitor takes the threads' records (a ring holds that long). */
    static final long STREAM_EVERY_NANOS = 10000000L;
    /** Token bytes held after which the stream writes a chunk before its time. */
    static final long CHUNK_HELD = 4L << 20;

    private static volatile Monitor current;
    private static volatile Thread thread;

    /** Writes one report (the ring's or the stream's way). */
    interface ReportWriter {
        long write(String path, TraceFile.Report r) throws IOException;
    }

    /** Whether the monitor takes every thread's records (stream mode); off again when the stream has nowhere to go. */
    private volatile boolean following;
    /** The stream, once its file is open (null: ring mode, or not yet). */
    volatile Stream stream;
    /**
     * Stream mode on Android with no tracebeat.trace: the records are
     * taken and held from the start, and the stream opens once the app's
     * files folder is found ({@link AndroidApp}); the first chunk then
     * holds all of them.
     */
    private boolean awaitingPath;
    final Watch watch;
    private final Reports reports;
    private final Triggers triggers;
    private final long period;
    private final List<Cursor> cursors = new ArrayList<Cursor>();
    /** The sinks whose records go to the stream, until the chunk after their thread ended. */
    private final List<TokenSink> encoded = new ArrayList<TokenSink>();
    private int dumps;
    private long lastTriggers = Long.MIN_VALUE / 2;
    private long lastRebalance;
    private long lastStalls = Long.MIN_VALUE / 2;
    private long lastAppLook = Long.MIN_VALUE / 2;
    /** Android: whether the app was looked for to the end (see {@link AndroidApp}). */
    private boolean appLooked;
    /** How often threads are looked at for stalls (thresholds are seconds). */
    static final long STALL_EVERY_NANOS = 50000000L;
    private boolean failed;
    private volatile boolean stopped;

    private Monitor() {
        stream = Settings.stream() && Settings.TRACE != null ? Stream.open(Settings.TRACE) : null;
        awaitingPath = Settings.stream() && Settings.TRACE == null;
        if (Settings.watching()) {
            watch = new Watch(MethodNames.load(Settings.MAP));
            reports = new Reports(watch);
        } else {
            watch = null;
            reports = null;
        }
        following = stream != null || awaitingPath;
        triggers = new Triggers();
        period = following ? STREAM_EVERY_NANOS : watch != null ? 20000000L : TRIGGER_EVERY_NANOS;
    }

    /** Starts the monitor; false when no thread can be started (a SecurityManager). */
    static boolean start() {
        try {
            Monitor m = new Monitor();
            Thread t = new Thread(m, "tracebeat-monitor");
            t.setDaemon(true);
            current = m;
            thread = t;
            t.start();
            return true;
        } catch (Throwable e) {
            current = null;
            thread = null;
            Settings.warn("no monitor thread (" + e + "): no stream, reports or dumps on request");
            return false;
        }
    }

    static Monitor current() {
        return current;
    }

    /** The watch, or null (no tracebeat.slow or tracebeat.stall, or no monitor). */
    static Watch watch() {
        Monitor m = current;
        return m == null ? null : m.watch;
    }

    static boolean running() {
        Monitor m = current;
        return m != null && !m.stopped && m.following;
    }

    /** Wakes the monitor now (a ring is full, a signal came). */
    static void hurry() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Whether new threads must be handed to the monitor. */
    static boolean follows() {
        Monitor m = current;
        return m != null && m.following;
    }

    @Override
    public void run() {
        while (!stopped) {
            LockSupport.parkNanos(period);
            IO.lock();
            try {
                if (!stopped) {
                    step(Clock.now(), false);
                }
            } catch (Throwable e) {
                if (!failed) {
                    failed = true;
                    Settings.warn("monitor: " + e);
                }
            } finally {
                IO.unlock();
            }
        }
    }

    /** One round: take the threads' records, look for stalls, write what is due. */
    private void step(long now, boolean last) {
        if (following) {
            adopt();
            follow(now);
            if (awaitingPath) {
                openFound();
            }
        }
        if (watch != null) {
            if (!last && Settings.STALL_NANOS > 0 && now - lastStalls >= STALL_EVERY_NANOS) {
                lastStalls = now;
                if (following) {
                    for (Cursor c : cursors) {
                        c.sink.lookForStall(watch, now);
                    }
                } else {
                    Recorder.lookForStalls(watch, now);
                }
            }
            if (!last && Settings.ANR_NANOS > 0) {
                MainLooper.lookForAnr(watch, now);
            }
            // Android: a report waits for the app's files folder, its place.
            if (!(Platform.ANDROID && Settings.trace() == null && !appLooked)) {
                writeReports(now);
            }
        }
        if (stream != null && (last || now - stream.lastChunkAt >= Settings.FLUSH_NANOS || Stream.held(encoded) >= CHUNK_HELD)) {
            chunk(now);
        }
        if (!last && Platform.ANDROID && !appLooked && now - lastAppLook >= TRIGGER_EVERY_NANOS) {
            lastAppLook = now;
            appLooked = AndroidApp.look();
        }
        if (!last && now - lastTriggers >= TRIGGER_EVERY_NANOS) {
            lastTriggers = now;
            String asked = triggers.poll();
            if (asked != null) {
                dump(asked, now);
            }
        }
        if (!last && now - lastRebalance >= TRIGGER_EVERY_NANOS && Recorder.starvedSince(lastRebalance)) {
            lastRebalance = now;
            Recorder.rebalance();
        }
    }

    private void adopt() {
        for (ThreadLog log; (log = FRESH.poll()) != null;) {
            log.followed = true;
            boolean writing = stream != null || awaitingPath;
            TokenSink sink = new TokenSink(log, watch, writing);
            if (writing) {
                encoded.add(sink);
            }
            Cursor c = new Cursor(log, sink);
            log.cursor = c;
            cursors.add(c);
        }
    }

    /**
     * Stream mode waiting for the app's files folder: opens the stream
     * there once it is found. When it cannot be opened, the app was looked
     * for to the end without one, or the records held meanwhile passed the
     * budget, the monitor stops following and the rings go on as in ring
     * mode (their newest records are what a dump or the exit writes).
     */
    private void openFound() {
        String path = Settings.trace();
        String why = null;
        if (path != null) {
            awaitingPath = false;
            stream = Stream.open(path); // says why when it cannot
            if (stream == null) {
                unfollow();
            }
            return;
        }
        if (appLooked) {
            why = "the app's files folder was not found";
        } else if (Stream.held(encoded) > Settings.BUDGET) {
            why = "the records held while looking for the app's files folder passed tracebeat.budget";
        }
        if (why != null) {
            awaitingPath = false;
            unfollow();
            Settings.warn("stream mode: " + why + "; recording in the rings instead");
        }
    }

    /** Stops taking the threads' records: they stay in their rings. */
    private void unfollow() {
        following = false;
        for (Cursor c : cursors) {
            c.log.followed = false;
            c.log.cursor = null;
        }
        cursors.clear();
        encoded.clear();
        FRESH.clear();
    }

    private void follow(long now) {
        int kept = 0;
        for (int i = 0; i < cursors.size(); i++) {
            Cursor c = cursors.get(i);
            c.take(now);
            if (c.done) {
                c.log.followed = false;
                c.log.cursor = null;
            } else {
                cursors.set(kept++, c);
            }
        }
        cursors.subList(kept, cursors.size()).clear();
    }

    private void chunk(long now) {
        stream.chunk(encoded, now);
        int kept = 0;
        for (int i = 0; i < encoded.size(); i++) {
            TokenSink t = encoded.get(i);
            if (t.log.cursor != null || !t.empty()) {
                encoded.set(kept++, t);
            }
        }
        encoded.subList(kept, encoded.size()).clear();
    }

    private void writeReports(long now) {
        if (watch.due.isEmpty()) {
            return;
        }
        if (stream != null) {
            chunk(now); // the window's records into the file first
        }
        ReportWriter writer = stream != null ? new ReportWriter() {
            @Override
            public long write(String path, TraceFile.Report r) throws IOException {
                return stream.report(path, r);
            }
        } : new ReportWriter() {
            @Override
            public long write(String path, TraceFile.Report r) throws IOException {
                return TraceFile.writeSnapshot(path, new ArrayList<ThreadLog>(Recorder.LOGS), TraceFile.KIND_REPORT, r.from, r.to, r);
            }
        };
        for (Watch.Due d; (d = watch.due.poll()) != null;) {
            reports.write(d, writer);
        }
    }

    private void dump(String asked, long now) {
        try {
            String path;
            if (stream != null) {
                chunk(now);
                if (asked.isEmpty()) {
                    triggers.answer(stream.path, null);
                    return;
                }
                path = asked;
                stream.copy(path, TraceFile.KIND_DUMP);
            } else {
                path = asked.isEmpty() ? Reports.beside("dump", ++dumps) : asked;
                TraceFile.writeSnapshot(path, new ArrayList<ThreadLog>(Recorder.LOGS), TraceFile.KIND_DUMP, 0, Long.MAX_VALUE, null);
            }
            triggers.answer(path, null);
        } catch (IOException | RuntimeException e) {
            triggers.answer(null, e.getMessage() != null ? e.getMessage() : e.toString());
        }
    }

    /**
     * At exit: takes everything the threads wrote (waiting a moment for the
     * last records to be published), writes the reports due, and ends the
     * stream with its footer. True when it wrote the recording (stream).
     */
    boolean finish() {
        stopped = true;
        IO.lock();
        try {
            if (following) {
                step(Clock.now(), true);
                LockSupport.parkNanos(Cursor.QUIET_NANOS + 1000000L);
            }
            step(Clock.now(), true); // the reports the threads queued last too
            if (stream != null) {
                stream.close(Clock.now(), TraceFile.KIND_STREAM);
                return true;
            }
            return false;
        } finally {
            IO.unlock();
        }
    }

    /** Recorder.write in stream mode: the stream as it is now, whole (a copy with a footer). */
    long copyStream(String file) throws IOException {
        chunk(Clock.now());
        return stream.copy(file, TraceFile.KIND_WRITE);
    }
}
