package ins;

/**
 * Every return type (V, Z, B, C, S, I, J, F, D, reference, array), several
 * returns per method, returns inside loops, switches and try blocks: exit
 * code goes before each return and must leave the returned value (one or
 * two slots) untouched.
 */
public final class Returns {
    private Returns() {
    }

    static void v(int[] box) {
        if (box[0] > 0) {
            box[0]--;
            return;
        }
        box[0] = 99;
    }

    static boolean z(int x) {
        return x > 0;
    }

    static byte b(int x) {
        return (byte) x;
    }

    static char c(int x) {
        return x > 0 ? 'p' : 'n';
    }

    static short s(int x) {
        return (short) (x * 1000);
    }

    static int i(int x) {
        for (int k = 0; k < 10; k++) {
            if (k * k > x) {
                return k;
            }
        }
        return -1;
    }

    static long j(int x) {
        switch (x) {
            case 0:
                return Long.MIN_VALUE;
            case 1:
                return 1L << 40;
            case 2:
                return -7L;
            default:
                return x;
        }
    }

    static float f(float x) {
        try {
            if (x < 0) {
                return -x;
            }
            return x * 0.5f;
        } finally {
            x = 0;
        }
    }

    static double d(double x) {
        if (Double.isNaN(x)) {
            return 0.0;
        }
        return x > 1e10 ? Double.POSITIVE_INFINITY : x / 3;
    }

    static String a(String s) {
        return s == null ? "null" : s.isEmpty() ? null : s.trim();
    }

    static long[] arr(int n) {
        if (n <= 0) {
            return null;
        }
        long[] r = new long[n];
        r[n - 1] = n;
        return r;
    }

    public static void main(String[] args) {
        int[] box = {1};
        v(box);
        v(box);
        System.out.println("returns: " + box[0] + " " + z(1) + z(-1) + " " + b(300) + " " + c(1) + c(0) + " "
                + s(40) + " " + i(17) + i(1000) + " " + j(0) + " " + j(1) + " " + j(2) + " " + j(5) + " " + f(-2f)
                + " " + f(3f) + " " + d(Double.NaN) + " " + d(1e11) + " " + d(9) + " " + a(null) + " " + a("")
                + " " + a(" x ") + " " + arr(0) + " " + arr(3)[2]);
    }
}
