// A program of known work for tracebeat diff (cmd/tracebeat/diff_test.go
// and the README's example). main runs args[0] rounds of steady() (busy
// 400 µs), slowed() (busy 300 µs) and removed() (busy 200 µs), each
// waiting in its own code; args[1] scales every wait. The second build,
// testdata/diff/v2, has slowed() ten times slower and tail() instead of
// removed().
package app;

public class Work {
    static long scale;

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        scale = Long.parseLong(args[1]);
        long s = 0;
        for (int i = 0; i < rounds; i++) {
            s += steady(i) + slowed(i) + removed(i);
        }
        System.out.println(s > 0);
    }

    static long steady(int i) {
        long end = System.nanoTime() + 400_000 * scale, n = i;
        while (System.nanoTime() < end) n++;
        return n;
    }

    static long slowed(int i) {
        long end = System.nanoTime() + 300_000 * scale, n = i;
        while (System.nanoTime() < end) n++;
        return n;
    }

    static long removed(int i) {
        long end = System.nanoTime() + 200_000 * scale, n = i;
        while (System.nanoTime() < end) n++;
        return n;
    }
}
