package cf;

/** synchronized methods (ACC_SYNCHRONIZED) and blocks (monitorenter/monitorexit with their catch-any handlers). */
public class Sync {
    private final Object lock = new Object();
    private int count;
    private static int total;

    public synchronized void inc() {
        count++;
    }

    public static synchronized void incTotal() {
        total++;
    }

    public int block(int x) {
        synchronized (lock) {
            if (x < 0) {
                throw new IllegalArgumentException("negative");
            }
            count += x;
            return count;
        }
    }

    public int nested(Object a, Object b) {
        synchronized (a) {
            synchronized (b) {
                synchronized (this) {
                    return ++count;
                }
            }
        }
    }

    public long inLoop(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            synchronized (lock) {
                if (i % 3 == 0) {
                    continue;
                }
                try {
                    s += i;
                } finally {
                    s ^= 1;
                }
            }
        }
        return s;
    }

    public static synchronized String syncThrow(String s) throws Exception {
        if (s == null) {
            throw new Exception("null");
        }
        synchronized (Sync.class) {
            return s.trim();
        }
    }
}
