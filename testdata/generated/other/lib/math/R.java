package lib.math;

/** A class named R that is no Android R (a ratio): traced. */
public class R {
    public static final class Helper {
        public static int gcd(int a, int b) {
            while (b != 0) {
                int t = a % b;
                a = b;
                b = t;
            }
            return Math.abs(a);
        }
    }

    public static int reduce(int a, int b) {
        return a / Helper.gcd(a, b);
    }
}
