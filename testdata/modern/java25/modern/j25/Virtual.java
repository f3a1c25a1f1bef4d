package modern.j25;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Java 25: 10,000 virtual threads that block (sleep, a lock, synchronized,
 * which no longer pins them) and run pattern switches; constructors with
 * statements before super() (flexible constructor bodies, final in 25);
 * unnamed variables. Its output does not depend on scheduling.
 */
public final class Virtual {
    sealed interface Job permits Sum, Fail, Sleep {}

    record Sum(int from, int to) implements Job {}

    record Fail(int code) implements Job {}

    record Sleep(int millis, int then) implements Job {}

    static class Base {
        final int size;

        Base(int size) {
            this.size = size;
        }
    }

    /** Checks and computes before calling super(): legal since Java 25. */
    static final class Checked extends Base {
        final String label;

        Checked(int raw, String label) {
            if (raw < 0) {
                throw new IllegalArgumentException("negative " + raw);
            }
            int rounded = (raw + 7) / 8 * 8;
            this.label = label + ":" + rounded;
            super(rounded);
        }
    }

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Object MONITOR = new Object();
    private static long locked; // guarded by LOCK
    private static long synced; // guarded by MONITOR

    static long run(Job job) throws InterruptedException {
        return switch (job) {
            case Sum(int from, int to) when from > to -> 0;
            case Sum(int from, int to) -> {
                long s = 0;
                for (int i = from; i <= to; i++) {
                    s += i;
                }
                yield s;
            }
            case Fail(int code) -> throw new IllegalStateException("job failed with " + code);
            case Sleep(int millis, int then) -> {
                Thread.sleep(millis);
                yield then;
            }
        };
    }

    static Job jobFor(int i) {
        return switch (i % 4) {
            case 0 -> new Sum(0, i % 100);
            case 1 -> new Sleep(1, i);
            case 2 -> new Fail(i);
            default -> new Sum(i, 0);
        };
    }

    public static void main(String[] args) throws Exception {
        AtomicLong total = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<Future<?>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 10_000; i++) {
                int n = i;
                futures.add(pool.submit(() -> {
                    try {
                        total.addAndGet(run(jobFor(n)));
                    } catch (IllegalStateException _) {
                        failed.incrementAndGet();
                    }
                    LOCK.lock();
                    try {
                        locked += 1;
                    } finally {
                        LOCK.unlock();
                    }
                    synchronized (MONITOR) {
                        synced += 1;
                    }
                    return null;
                }));
            }
        }
        for (Future<?> f : futures) {
            f.get();
        }
        System.out.println("total " + total.get() + ", failed " + failed.get() + ", locked " + locked + ", synchronized " + synced);
        System.out.println(new Checked(13, "box").label + " " + new Checked(13, "box").size);
        try {
            new Checked(-1, "bad");
        } catch (IllegalArgumentException e) {
            System.out.println("refused " + e.getMessage());
        }
        System.out.println(String.join("; ", modern.j21.Patterns.report()));
    }
}
