package com.github.tracebeat.runtime;

/**
 * The monitor's place in one thread's ring: each {@link #take} reads the
 * slots the owner published since the last one and gives their records, in
 * order, to the thread's {@link Follower}.
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

    final ThreadLog log;
    final Follower follower;
    private final MarkReader marks = new MarkReader();
    /** The next slot to take (the owner's slot number). */
    long pos;
    /** Records taken. */
    long records;
    /** Set once the thread ended and everything it wrote was taken. */
    boolean done;
    private long lastPublished = -1;
    private long publishedAt;
    private int[] buf = new int[256];
    /** Slots that went and records that had no time since the last record given: the next gap. */
    private long gone;
    private long untimedSeen;

    Cursor(ThreadLog log, Follower follower) {
        this.log = log;
        this.follower = follower;
    }

    /** How long a published count must stay still before the cursor reads the thread's plain count. */
    static final long QUIET_NANOS = 2000000L;

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
        if (cap == 0) {
            if (end > pos && log.retired == null) {
                pos = end; // written without a ring: the runtime counted them lost
            }
            done = ended && log.retired == null;
            return;
        }
        long first = Math.max(pos, Math.max(base, end - cap));
        if (first > pos) {
            lose(first - pos);
        }
        boolean watchWraps = log.wraps != 0;
        while (first < end) {
            int n = (int) Math.min(CHUNK, end - first);
            if (buf.length < n) {
                buf = new int[Math.max(n, buf.length * 2)];
            }
            for (int k = 0; k < n; k++) {
                buf[k] = ring[(int) (first + k) & (cap - 1)];
            }
            int skip = 0;
            if (watchWraps && !ended) {
                // What the owner may have written since over what we copied.
                long safe = log.published + SLACK - cap;
                if (safe > first) {
                    skip = (int) Math.min(n, safe - first);
                    lose(skip);
                }
            }
            for (int k = skip; k < n; k++) {
                if (marks.take(buf[k])) {
                    give(buf[k]);
                }
            }
            first += n;
        }
        pos = end;
        if (Settings.MODE == Settings.MODE_STREAM) {
            log.drained = pos;
        }
        done = ended;
        if (done) {
            flushGap();
        }
    }

    /** The slots left of a thread whose ring was given back (see {@link ThreadLog#retire}). */
    private void takeRetired(TraceFile.Snapshot s) {
        long from = Math.max(pos, s.first);
        if (from > pos) {
            lose(from - pos);
        }
        if (pos < s.first) {
            marks.lose(); // the snapshot starts at a whole mark
        }
        for (long k = from - s.first; k < s.len; k++) {
            int slot = s.slot((int) k);
            if (marks.take(slot)) {
                give(slot);
            }
        }
        pos = s.first + s.len;
        done = true;
        flushGap();
    }

    private void give(int slot) {
        if (gone > 0 || marks.untimed != untimedSeen) {
            flushGap();
        }
        records++;
        follower.record(slot, marks.time);
    }

    /** Tells the follower of the records that went since the last it was given. */
    private void flushGap() {
        long n = gone + marks.untimed - untimedSeen;
        untimedSeen = marks.untimed;
        gone = 0;
        if (n > 0) {
            follower.gap(n);
        }
    }

    private void lose(long slots) {
        marks.lose();
        gone += slots;
    }
}
