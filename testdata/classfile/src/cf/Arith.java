package cf;

/** long/double arithmetic: two-slot locals and parameters, conversions, comparisons (lcmp, fcmpl/fcmpg, dcmpl/dcmpg), shifts. */
public final class Arith {
    private Arith() {
    }

    public static long mix(long a, int b, double c, float d, long e) {
        long x = a * b + e;
        double y = c / d;
        float z = d * 2.5f;
        int i = (int) (x >>> 3);
        short s = (short) i;
        byte by = (byte) s;
        char ch = (char) (by & 0x7f);
        x ^= (long) y << 7;
        x += Double.doubleToLongBits(y) >> 11;
        if (x > e && y < c && z >= d && c != y) {
            x--;
        }
        return x + ch + (long) z + Math.round(y);
    }

    public static double series(int n) {
        double sum = 0;
        long fact = 1;
        for (int k = 1; k <= n; k++) {
            fact *= k;
            sum += 1.0 / fact;
        }
        return sum;
    }

    public static int compare(float a, float b, double c, double d) {
        int r = 0;
        if (a < b) {
            r |= 1;
        }
        if (a > b) {
            r |= 2;
        }
        if (c <= d) {
            r |= 4;
        }
        if (c >= d) {
            r |= 8;
        }
        if (Float.isNaN(a) || c != c) {
            r |= 16;
        }
        return r;
    }

    public static long iinc(int start) {
        int i = start;
        i += 5;
        i -= 128;
        i += 127;
        i += 1000;
        i -= 32768;
        i += 40000;
        return i;
    }

    public static long[] ladders(long a, double b, long c, double d) {
        long[] out = new long[4];
        out[0] = a % c;
        out[1] = (long) (b % d);
        out[2] = -a;
        out[3] = (long) -d;
        return out;
    }
}
