package tbapp;

import android.os.Handler;
import android.os.Looper;
import android.os.SystemClock;

/**
 * What the app does on its main thread: a message that runs 800 ms (a
 * "slow method" Matrix reports), an exception thrown through several traced
 * frames and caught, a constructor that throws, and a static initializer.
 */
public final class Work {
    static final int[] TABLE;

    static {
        int[] t = new int[16];
        for (int i = 0; i < t.length; i++) {
            t[i] = i * i;
        }
        TABLE = t;
    }

    /** Posts the slow message to the main looper. */
    public static void postSlowMessage(final StringBuilder out) {
        new Handler(Looper.getMainLooper()).post(new Runnable() {
            @Override
            public void run() {
                out.append("slow ").append(slowWork(800)).append(';');
            }
        });
    }

    /** Posts a message that rests millis on the main thread (a sleep, no work). */
    public static void postPause(final long millis) {
        new Handler(Looper.getMainLooper()).post(new Runnable() {
            @Override
            public void run() {
                SystemClock.sleep(millis);
            }
        });
    }

    /**
     * Posts a message stuck for millis in stuck(), that then runs
     * whileStuck still inside it: an ANR, seen while it runs.
     */
    public static void postStuckMessage(final long millis, final Runnable whileStuck) {
        new Handler(Looper.getMainLooper()).post(new Runnable() {
            @Override
            public void run() {
                stuck(millis);
                whileStuck.run();
            }
        });
    }

    static void stuck(long millis) {
        SystemClock.sleep(millis);
    }

    /** Runs about millis on the app's clock (SystemClock, which Matrix reads). */
    static long slowWork(long millis) {
        long start = SystemClock.uptimeMillis();
        long sum = 0;
        for (int round = 0; round < 8; round++) {
            sum += step(round);
            SystemClock.sleep(millis / 8);
        }
        return (SystemClock.uptimeMillis() - start) >= millis ? sum : -1;
    }

    static int step(int round) {
        return TABLE[round % TABLE.length] + round;
    }

    static int parse(String s) {
        return Integer.parseInt(s.trim());
    }

    static int level3(String s) {
        return parse(s) * 2;
    }

    static int level2(String s) {
        return level3(s) + 1;
    }

    /** Throws through level2, level3 and parse, and catches it here. */
    public static String throughFrames(String s) {
        try {
            return "parsed " + level2(s);
        } catch (NumberFormatException e) {
            return "caught " + e.getClass().getSimpleName();
        }
    }

    /** A constructor that throws after calling super(). */
    public static final class Picky {
        final int value;

        public Picky(int value) {
            super();
            if (value < 0) {
                throw new IllegalArgumentException("negative " + value);
            }
            this.value = value;
        }
    }

    public static String picky(int v) {
        try {
            return "picky " + new Picky(v).value;
        } catch (IllegalArgumentException e) {
            return "refused " + e.getMessage();
        }
    }

    private Work() {
    }
}
