package com.github.tracebeat.runtime;

/**
 * The monitor's place in one thread's ring: each {@link #take} reads the
 * slots the owner published since the last one and gives them, in order,
 * to the thread's {@link SlotSink}: the stream's {@link RecordSink}, or the
 * slow and stall watch's {@link DepthWatch}.
 *
 * <p>The owner never waits for it (except in stream mode, when its ring is
 * full of slots not taken and the budget is spent), so a slot may be
 * overwritten before it is taken: the cursor copies what it reads, then
 * drops what the owner may have written over meanwhile, and the follower
 * learns how many records went.
 *
 * <p>A thread publishes when it reads the clock, so the last few records of
 * a thread that stopped recording (blocked, waiting, sleeping) are not
 * published: a thread stuck in a call has just written its enter. When a
 * thread's published count has not moved for {@link #QUIET_NANOS}, the
 * cursor reads its plain count: the thread has not recorded meanwhile (a
 * thread that records publishes at each tick of the clock, or at each
 * record with the precise clock), so its stores are long done; a count
 * outside what it can be is ignored. A thread that ended has published everything
 * (its end happens-before {@code isAlive()} returns false).
 */
final class Cursor {
    /** Slots an owner may write past its published count before it publishes again. */
    static final int SLACK = Clock.READ_EVERY + 8;
    private static final int CHUNK = 1 << 16;
    /** How long a published count must stay still before the cursor reads the thread's plain count. */
    static final long QUIET_NANOS = 2000000L;

    final ThreadLog log;
    final SlotSink sink;
    /** The next slot to take (the owner's slot number). */
    long pos;
    /** Set once the thread ended and everything it wrote was taken. */
    boolean done;
    private long lastPublished = -1;
    private long publishedAt;
    private int[] buf = new int[256];

    Cursor(ThreadLog log, SlotSink sink) {
        this.log = log;
        this.sink = sink;
    }

    /** Takes what the thread wrote since the last call (now: the monitor's time, {@link Clock#now}). */
    void take(long now) {
        if (done) {
            return;
        }
        boolean ended = log.ended();
        TraceFile.Snapshot retired = log.retired;
        if (retired != null) {
            takeRetired(retired);
            return;
        }
        long published = log.published;
        int[] ring = log.ring;
        long base = log.base;
        long end = published;
        if (ended) {
            end = log.count;
        } else {
            if (published != lastPublished) {
                lastPublished = published;
                publishedAt = now;
            }
            if (now - publishedAt >= QUIET_NANOS) {
                long c = log.count; // racy on purpose: see the class comment
                if (c >= published && c <= published + SLACK) {
                    end = c;
                }
            }
        }
        int cap = ring.length;
        if (end == pos && !ended) {
            sink.quiet();
            return;
        }
        if (cap == 0) {
            if (end > pos && log.retired == null) {
                pos = end; // written without a ring: the runtime counted them lost
            }
            finish(ended && log.retired == null);
            return;
        }
        long first = Math.max(pos, Math.max(base, end - cap));
        if (first > pos) {
            sink.lost(first - pos);
        }
        boolean watchWraps = log.wraps != 0;
        while (first < end) {
            int n = (int) Math.min(CHUNK, end - first);
            if (buf.length < n) {
                buf = new int[Math.max(n, buf.length * 2)];
            }
            int at = (int) first & (cap - 1);
            int part = Math.min(n, cap - at);
            System.arraycopy(ring, at, buf, 0, part);
            System.arraycopy(ring, 0, buf, part, n - part);
            int skip = 0;
            if (watchWraps && !ended) {
                // What the owner may have written since over what we copied.
                long safe = log.published + SLACK - cap;
                if (safe > first) {
                    skip = (int) Math.min(n, safe - first);
                    sink.lost(skip);
                }
            }
            sink.slots(buf, skip, n);
            first += n;
        }
        pos = end;
        if (Settings.MODE == Settings.MODE_STREAM) {
            log.drained = pos;
        }
        finish(ended);
    }

    /** The slots left of a thread whose ring was given back (see {@link ThreadLog#retire}). */
    private void takeRetired(TraceFile.Snapshot s) {
        long from = Math.max(pos, s.first);
        if (pos < s.first) {
            sink.lost(s.first - pos); // the snapshot starts at a whole mark
        }
        int k = (int) (from - s.first);
        while (k < s.len) {
            int n = Math.min(CHUNK, s.len - k);
            if (buf.length < n) {
                buf = new int[Math.max(n, buf.length * 2)];
            }
            for (int i = 0; i < n; i++) {
                buf[i] = s.slot(k + i);
            }
            sink.slots(buf, 0, n);
            k += n;
        }
        pos = s.first + s.len;
        finish(true);
    }

    private void finish(boolean ended) {
        if (ended && !done) {
            done = true;
            sink.ended();
        }
    }
}
