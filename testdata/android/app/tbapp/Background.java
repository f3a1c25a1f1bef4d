package tbapp;

import android.os.Process;

/**
 * Work on threads of the app's own, for the check of tracebeat's runtime
 * on Android (testdata/android/check/tbcheck/RuntimeCheckTest.java): each
 * thread runs rounds of a traced computation and says which Linux tid it
 * had, as the framework gives it.
 */
public final class Background implements Runnable {
    private final int rounds;
    private volatile long sum;
    private volatile int tid;

    public Background(int rounds) {
        this.rounds = rounds;
    }

    @Override
    public void run() {
        tid = Process.myTid();
        long s = 0;
        for (int i = 0; i < rounds; i++) {
            s += square(i);
        }
        sum = s;
    }

    /** It calls a method, so that tracebeat traces it: Matrix's rules skip a method that calls none. */
    private static long square(int i) {
        return Math.multiplyExact((long) i, (long) i);
    }

    public long sum() {
        return sum;
    }

    public int tid() {
        return tid;
    }
}
