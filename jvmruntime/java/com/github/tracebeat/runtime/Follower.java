package com.github.tracebeat.runtime;

/**
 * Follows one thread's records in order: keeps its open calls
 * ({@link CallStack}), gives each record to the block encoder when there is
 * one (the stream, a snapshot), and tells the watch of each call that
 * returns. The stack's rules are the decoder's: the tokens depend on them.
 */
final class Follower {
    final ThreadLog log;
    final CallStack stack = new CallStack();
    /** The tokens of the current block, or null when no file is written (the watch alone). */
    BlockEncoder encoder;
    /** Null when no call is watched (a snapshot). */
    Watch watch;
    /** The time of the thread's last record, -1 before one. */
    long lastTime = -1;
    /** Records lost (overwritten before they were taken) not yet written as a gap. */
    long lost;

    Follower(ThreadLog log, BlockEncoder encoder, Watch watch) {
        this.log = log;
        this.encoder = encoder;
        this.watch = watch;
    }

    void record(int word, long t) {
        lastTime = t;
        if (word >= 0) {
            stack.push(word, t);
            if (encoder != null) {
                encoder.enter(word, t);
            }
            return;
        }
        int w = word & ~Recorder.EXIT;
        int i = stack.depth - 1;
        boolean top = i >= 0 && stack.words[i] == w;
        if (!top) {
            i = stack.find(w);
        }
        if (i >= 0) {
            if (watch != null) {
                watch.returned(this, i, t);
            }
            stack.popTo(i);
        }
        if (encoder != null) {
            if (top) {
                encoder.exitTop(t);
            } else {
                encoder.exitWord(w, t);
            }
        }
    }

    /** n records went before they were taken: no call is known open any more. */
    void gap(long n) {
        stack.clear();
        if (encoder != null) {
            encoder.gap(n);
        } else {
            lost += n;
        }
    }
}
