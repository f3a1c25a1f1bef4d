package com.github.tracebeat.runtime;

/**
 * Reads a ring's slots in order (see {@link ThreadLog}): a time mark sets
 * the time the records after it carry; a short mark (its low half alone)
 * takes the high bits of the last full mark. Until the first full mark the
 * records have no time, and are dropped (counted).
 */
final class MarkReader {
    private long high = -1;
    private long pendingHigh;
    private boolean havePending;
    /** The time the next records carry; -1 before the first full mark. */
    long time = -1;
    /** Records dropped because no mark before them gave their time. */
    long untimed;

    /** Forgets the marks: slots went, the next full mark starts again. */
    void lose() {
        high = -1;
        havePending = false;
        time = -1;
    }

    /** Takes a slot: true when it is a record with a time (then in {@link #time}). */
    boolean take(int slot) {
        if ((slot & ThreadLog.MARK_BITS) == ThreadLog.MARK_BITS) {
            if ((slot & (ThreadLog.MARK_BITS | ThreadLog.MARK_PART)) == ThreadLog.MARK_HIGH) {
                pendingHigh = (long) (slot & ThreadLog.MARK_VALUE) << 28;
                havePending = true;
            } else if (havePending) {
                high = pendingHigh;
                havePending = false;
                time = high | (slot & ThreadLog.MARK_VALUE);
            } else if (high >= 0) {
                time = high | (slot & ThreadLog.MARK_VALUE);
            }
            return false;
        }
        if (time < 0) {
            untimed++;
            return false;
        }
        return true;
    }
}
