package ins;

/**
 * synchronized methods and blocks, with exceptions leaving them. Exit code
 * must run inside the monitor region bookkeeping javac generated, and the
 * monitors must still be released (checked by taking them again from a
 * second thread).
 */
public final class Locking {
    private final Object lock = new Object();
    private int count;

    synchronized int syncMethod(int x) {
        if (x < 0) {
            throw new IllegalArgumentException("negative " + x);
        }
        count += x;
        return count;
    }

    static synchronized String syncStatic(String s) {
        return s.toUpperCase();
    }

    int syncBlock(int x) {
        synchronized (lock) {
            if (x == 0) {
                throw new ArithmeticException("zero");
            }
            count += 100 / x;
            return count;
        }
    }

    long nestedBlocks(Object other, boolean fail) {
        synchronized (this) {
            synchronized (other) {
                try {
                    if (fail) {
                        throw new IllegalStateException("inner fail");
                    }
                    return count;
                } finally {
                    count++;
                }
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Locking l = new Locking();
        StringBuilder out = new StringBuilder("locking:");
        out.append(' ').append(l.syncMethod(5));
        try {
            l.syncMethod(-1);
        } catch (IllegalArgumentException e) {
            out.append(' ').append(e.getMessage());
        }
        out.append(' ').append(syncStatic("abc"));
        out.append(' ').append(l.syncBlock(4));
        try {
            l.syncBlock(0);
        } catch (ArithmeticException e) {
            out.append(' ').append(e.getMessage());
        }
        Object other = new Object();
        out.append(' ').append(l.nestedBlocks(other, false));
        try {
            l.nestedBlocks(other, true);
        } catch (IllegalStateException e) {
            out.append(' ').append(e.getMessage());
        }
        // If any monitor leaked, this thread would block forever (the test's
        // timeout catches it).
        int[] seen = new int[1];
        Thread t = new Thread(() -> {
            synchronized (l) {
                synchronized (l.lock) {
                    synchronized (other) {
                        seen[0] = l.count;
                    }
                }
            }
        }, "locking-checker");
        t.start();
        t.join();
        out.append(" monitors free ").append(seen[0]);
        System.out.println(out);
    }
}
