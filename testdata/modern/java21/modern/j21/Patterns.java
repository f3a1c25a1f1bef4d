package modern.j21;

import java.util.List;

/**
 * Java 21 shapes: records, a sealed interface, pattern switch on types and
 * records (invokedynamic typeSwitch), guards, instanceof patterns, and
 * nested classes that use each other's private members through nestmates
 * (NestHost/NestMembers, no access bridges).
 */
public final class Patterns {
    sealed interface Expr permits Num, Add, Mul, Neg {}

    record Num(int value) implements Expr {}

    record Add(Expr left, Expr right) implements Expr {}

    record Mul(Expr left, Expr right) implements Expr {}

    record Neg(Expr inner) implements Expr {
        Neg {
            if (inner == null) {
                throw new IllegalArgumentException("null operand");
            }
        }
    }

    static int eval(Expr e) {
        return switch (e) {
            case Num n -> n.value();
            case Add(Num(var a), Num(var b)) -> a + b;
            case Add(var l, var r) -> eval(l) + eval(r);
            case Mul(var l, var r) when eval(l) == 0 -> 0;
            case Mul(var l, var r) -> eval(l) * eval(r);
            case Neg(var inner) -> -eval(inner);
        };
    }

    static String describe(Object o) {
        return switch (o) {
            case null -> "null";
            case Integer i when i > 100 -> "big int " + i;
            case Integer i -> "int " + i;
            case String s when s.isEmpty() -> "empty string";
            case String s -> "string of " + s.length();
            case int[] arr -> "ints x" + arr.length;
            case List<?> list -> "list of " + list.size();
            default -> o.getClass().getSimpleName();
        };
    }

    static String kind(Object o) {
        if (o instanceof Num(int v) && v > 0) {
            return "positive";
        }
        if (o instanceof Expr e && !(e instanceof Num)) {
            return "compound";
        }
        return "other";
    }

    private int secret = 41;

    private int bump() {
        return ++secret;
    }

    /** Reads and calls the outer class's private members: nestmates, no bridges. */
    final class Peeker {
        private final int seen;

        Peeker() {
            seen = bump();
        }

        int twice() {
            return seen + secret;
        }
    }

    static final class Counter {
        private int count;

        private void inc() {
            count++;
        }
    }

    static int countWith(Counter c, int n) {
        for (int i = 0; i < n; i++) {
            c.inc(); // a nestmate's private method
        }
        return c.count;
    }

    public static List<String> report() {
        Expr e = new Add(new Mul(new Num(3), new Num(4)), new Neg(new Add(new Num(1), new Num(2))));
        Patterns p = new Patterns();
        String refused;
        try {
            new Neg(null);
            refused = "accepted";
        } catch (IllegalArgumentException ex) {
            refused = "refused " + ex.getMessage();
        }
        return List.of(
                "eval " + eval(e),
                "zero " + eval(new Mul(new Num(0), new Neg(new Num(9)))),
                describe(7) + ", " + describe(700) + ", " + describe("") + ", " + describe("abc") + ", "
                        + describe(new int[3]) + ", " + describe(List.of(1, 2)) + ", " + describe(null) + ", " + describe(2.5),
                kind(new Num(5)) + " " + kind(e) + " " + kind("x"),
                "peek " + p.new Peeker().twice(),
                "count " + countWith(new Counter(), 5),
                refused);
    }

    public static void main(String[] args) {
        report().forEach(System.out::println);
    }
}
