package cf;

/**
 * Switches: strings (including "Aa"/"BB", which share a hashCode), dense
 * tableswitch and sparse lookupswitch with negative keys, and the same
 * switches placed at code offsets 1, 2, 3, 4 and 5 so every amount of
 * alignment padding occurs. Generated large switches live in BigSwitch.
 */
public final class Switches {
    private Switches() {
    }

    public static int strings(String s) {
        switch (s) {
            case "Aa":
                return 1;
            case "BB":
                return 2;
            case "alpha":
                return 3;
            case "beta":
            case "gamma":
                return 4;
            case "":
                return 5;
            default:
                return -1;
        }
    }

    public static String stringArrow(String s) {
        return switch (s) {
            case "one", "uno" -> "1";
            case "two" -> "2";
            default -> s.isEmpty() ? "empty" : "many";
        };
    }

    // tableswitch at offset 1 (iload_0; tableswitch): 2 bytes of padding.
    public static int table1(int x) {
        switch (x) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            case 4: return 14;
            case 5: return 15;
            default: return -1;
        }
    }

    // offset 2 (iload_0; ineg): 1 byte of padding.
    public static int table2(int x) {
        switch (-x) {
            case -3: return 10;
            case -2: return 11;
            case -1: return 12;
            case 0: return 13;
            case 1: return 14;
            case 2: return 15;
            default: return -1;
        }
    }

    // offset 3 (iload_0; iconst_1; iadd): no padding.
    public static int table3(int x) {
        switch (x + 1) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            case 4: return 14;
            default: return -1;
        }
    }

    // offset 4 (iload_0; bipush; iadd): 3 bytes of padding.
    public static int table4(int x) {
        switch (x + 100) {
            case 100: return 10;
            case 101: return 11;
            case 102: return 12;
            case 103: return 13;
            case 104: return 14;
            default: return -1;
        }
    }

    // offset 5 (iload_0; sipush; iadd): 2 bytes of padding.
    public static int table5(int x) {
        switch (x + 1000) {
            case 1000: return 10;
            case 1001: return 11;
            case 1002: return 12;
            case 1003: return 13;
            default: return -1;
        }
    }

    public static int lookup1(int x) {
        switch (x) {
            case -100000: return 1;
            case -7: return 2;
            case 0: return 3;
            case 1000: return 4;
            case Integer.MAX_VALUE: return 5;
            case Integer.MIN_VALUE: return 6;
            default: return -1;
        }
    }

    public static int lookup2(int x) {
        switch (-x) {
            case -500: return 1;
            case 3: return 2;
            case 77777: return 3;
            default: return -1;
        }
    }

    public static int lookup3(int x) {
        switch (x + 1) {
            case -1: return 1;
            case 1 << 20: return 2;
            case 99: return 3;
            default: return -1;
        }
    }

    public static int lookup4(int x) {
        switch (x + 100) {
            case -2_000_000: return 1;
            case 0: return 2;
            case 2_000_000: return 3;
            default: return -1;
        }
    }

    /** A switch inside a loop with fall-through, so the switch offsets and a backward branch meet. */
    public static int loop(int[] xs) {
        int acc = 0;
        for (int x : xs) {
            switch (x & 7) {
                case 0:
                    acc++;
                case 1:
                    acc += 2;
                    break;
                case 5:
                    continue;
                case 7:
                    acc -= x;
                    break;
                default:
                    acc ^= x;
            }
            acc *= 3;
        }
        return acc;
    }

    public static char chars(char c) {
        switch (c) {
            case 'a': return 'A';
            case 'z': return 'Z';
            case '\u00e9': return '\u00c9';
            default: return c;
        }
    }

    // A switch with only a default compiles to a lookupswitch with no
    // pairs: default and npairs, 8 bytes after the padding. At offsets 1
    // to 4 (every padding), and twice ending the method, where fewer
    // bytes follow the opcode than a tableswitch's fixed part needs.
    static int sink;

    public static int onlyDefault1(int x) {
        switch (x) { default: return x + 1; }
    }

    public static int onlyDefault2(int x) {
        switch (-x) { default: return x + 2; }
    }

    public static int onlyDefault3(int x) {
        switch (x + 1) { default: return x + 3; }
    }

    public static int onlyDefault4(int x) {
        switch (x + 100) { default: return x + 4; }
    }

    public static void onlyDefaultLast(int x) {
        switch (x) { default: }
    }

    public static void onlyDefaultLast2(int x) {
        switch (-x) { default: sink++; }
    }

    // One case: a lookupswitch with a single pair.
    public static int oneCase(int x) {
        switch (x) { case 7: return 70; default: return x; }
    }
}
