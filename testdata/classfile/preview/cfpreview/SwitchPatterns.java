package cfpreview;

/**
 * Pattern matching for switch, a preview feature in Java 17 (JEP 406):
 * compiled with --release 17 --enable-preview, so the class file's minor
 * version is 0xFFFF. javac lowers these switches to invokedynamic
 * SwitchBootstraps.typeSwitch plus a tableswitch on the returned index.
 */
public final class SwitchPatterns {
    private SwitchPatterns() {
    }

    sealed interface Node permits Leaf, Pair {
    }

    record Leaf(int value) implements Node {
    }

    record Pair(Node left, Node right) implements Node {
    }

    public static String describe(Object o) {
        return switch (o) {
            case null -> "null";
            case Integer i && i > 100 -> "big int " + i;
            case Integer i -> "int " + i;
            case String s && s.isEmpty() -> "empty string";
            case String s -> "string " + s.length();
            case long[] arr -> "longs " + arr.length;
            default -> "other " + o.getClass().getSimpleName();
        };
    }

    public static int sum(Node n) {
        return switch (n) {
            case Leaf l -> l.value();
            case Pair p -> sum(p.left()) + sum(p.right());
        };
    }

    public static void main(String[] args) {
        System.out.println(describe(7) + "|" + describe(700) + "|" + describe("") + "|" + describe("ab") + "|"
                + describe(null) + "|" + describe(new long[2]) + "|" + describe(1.5) + "|"
                + sum(new Pair(new Leaf(1), new Pair(new Leaf(2), new Leaf(3)))));
    }
}
