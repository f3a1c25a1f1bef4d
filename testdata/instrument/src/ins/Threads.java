package ins;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Several named threads running nested calls and exceptions at the same
 * time; each thread's enter/exit stack must balance on its own. Output is
 * collected per thread and printed in thread order.
 */
public final class Threads {
    private Threads() {
    }

    static int work(int id, int n, int round) {
        if (n == 0) {
            if (id % 2 == 1 && round % 3 == 0) {
                throw new IllegalStateException("odd " + id);
            }
            return id;
        }
        try {
            return work(id, n - 1, round) + 1;
        } finally {
            Thread.yield();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int count = 4;
        String[] results = new String[count];
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            final int id = t;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                int sum = 0;
                int failures = 0;
                for (int round = 0; round < 50; round++) {
                    try {
                        sum += work(id, round % 20, round);
                    } catch (IllegalStateException e) {
                        failures++;
                    }
                }
                results[id] = id + ":" + sum + "/" + failures;
            }, "worker-" + t);
            threads.add(th);
            th.start();
        }
        start.countDown();
        for (Thread th : threads) {
            th.join();
        }
        System.out.println("threads: " + String.join(" ", results));
    }
}
