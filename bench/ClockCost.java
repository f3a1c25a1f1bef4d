/**
 * Prints what one System.nanoTime() call costs on this machine, in ns (the
 * median of five rounds of 20 million calls, after a warm-up):
 * bench/runtime-overhead.sh uses it to say how much of the recording's cost
 * is the clock, which every enter and exit reads once.
 */
public final class ClockCost {
    public static void main(String[] args) {
        double[] rounds = new double[5];
        long sink = 0;
        for (int r = -2; r < rounds.length; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 20_000_000; i++) {
                sink += System.nanoTime();
            }
            long t1 = System.nanoTime();
            if (r >= 0) {
                rounds[r] = (t1 - t0) / 20e6;
            }
        }
        java.util.Arrays.sort(rounds);
        System.out.printf("%.1f%s%n", rounds[rounds.length / 2], sink == 42 ? " " : "");
    }
}
