package cf;

/**
 * String concatenation through invokedynamic (StringConcatFactory.makeConcatWithConstants):
 * mixed argument types, long/double slots, and literal text containing
 * \u0001 and \u0002, which javac must pass as extra bootstrap constants.
 */
public final class StringConcat {
    private StringConcat() {
    }

    public static String mixed(int i, long l, double d, float f, char c, boolean b, Object o, String s, byte by,
            short sh) {
        return "i=" + i + " l=" + l + " d=" + d + " f=" + f + " c=" + c + " b=" + b + " o=" + o + " s=" + s
                + " by=" + by + " sh=" + sh;
    }

    public static String tags(String s, int n) {
        return "\u0001" + s + "\u0002" + n + "\u0001\u0002";
    }

    public static String many(int[] a) {
        // More than 200 argument slots forces javac to split the concatenation.
        String r = "";
        for (int i = 0; i + 9 < a.length; i += 10) {
            r = r + a[i] + a[i + 1] + a[i + 2] + a[i + 3] + a[i + 4] + a[i + 5] + a[i + 6] + a[i + 7] + a[i + 8]
                    + a[i + 9];
        }
        return r;
    }

    public static String compound(String s, long x) {
        s += x;
        s += 'c';
        s += null;
        return s;
    }
}
