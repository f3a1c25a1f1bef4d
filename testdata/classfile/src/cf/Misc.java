package cf;

/**
 * Odds and ends: assert (synthetic $assertionsDisabled and <clinit>),
 * labeled break/continue, do/while, conditional operators producing
 * booleans, instanceof/checkcast, a static initializer with a loop,
 * deprecated members, strictfp-free float math, a getter, a setter and a
 * method that only returns.
 */
public class Misc {
    static final int[] TABLE;
    private int field;

    static {
        TABLE = new int[16];
        for (int i = 0; i < TABLE.length; i++) {
            TABLE[i] = i * i;
        }
    }

    public int getField() {
        return field;
    }

    public void setField(int field) {
        this.field = field;
    }

    public void nothing() {
    }

    @Deprecated
    public static int old(int x) {
        assert x >= 0 : "negative " + x;
        return x;
    }

    public static int labels(int[][] grid) {
        int found = 0;
        rows:
        for (int[] row : grid) {
            int j = 0;
            do {
                if (row[j] < 0) {
                    continue rows;
                }
                if (row[j] == 99) {
                    break rows;
                }
                found += row[j];
                j++;
            } while (j < row.length);
        }
        return found;
    }

    public static boolean logic(int a, int b, Object o) {
        boolean x = a > b && (b > 0 || a < -5) ^ o instanceof String;
        boolean y = !x | (o != null & o.hashCode() > 0);
        return x ? y : !y;
    }

    public static String cast(Object o) {
        return o instanceof Number ? ((Number) o).toString() : (String) o;
    }
}
