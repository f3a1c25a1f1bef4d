package cf8;

/** Version 52 tableswitch/lookupswitch at varying offsets and long/double locals. */
public final class Legacy8Switch {
    private Legacy8Switch() {
    }

    public static long dense(int x, long l, double d) {
        switch (x + 1) {
            case 1: return l;
            case 2: return (long) d;
            case 3: return l * 2;
            case 4: return (long) (d * 2);
            default: return -1;
        }
    }

    public static int sparse(int x) {
        switch (-x) {
            case -1000: return 1;
            case 0: return 2;
            case 5000: return 3;
            default: return 0;
        }
    }
}
