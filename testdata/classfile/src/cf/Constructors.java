package cf;

/**
 * Constructors whose super()/this() arguments are computed first (static
 * calls, ternaries, nested new), and new inside conditional expressions, so
 * stack map frames hold uninitializedThis and uninitialized(offset) entries.
 */
public class Constructors {
    protected final int value;

    public Constructors(int value) {
        this.value = value;
    }

    public static class Box {
        final Object content;

        public Box(Object content) {
            this.content = content;
        }
    }

    public static class Child extends Constructors {
        private final String label;

        // super argument computed by a static call.
        public Child(int x) {
            super(compute(x));
            this.label = "plain";
        }

        // ternary in the super argument: branches while `this` is uninitialized.
        public Child(int x, boolean negate) {
            super(negate ? -compute(x) : compute(x) + 1);
            this.label = negate ? "negated" : "kept";
        }

        // this(...) delegation with a conditional argument.
        public Child(String s) {
            this(s == null ? 0 : s.length(), s != null && s.startsWith("-"));
        }

        // a try/catch after super(): the handler may cover only initialized code.
        public Child(long big) {
            super((int) big);
            String l;
            try {
                l = Long.toString(big / (big - 1));
            } catch (ArithmeticException e) {
                l = "div0";
            }
            this.label = l;
        }

        private static int compute(int x) {
            return x * 3 + 1;
        }
    }

    public static class Holder {
        final Box box;

        // `new Box` inside a conditional passed to a constructor: frames with
        // uninitialized(offset) of the outer Holder on the stack.
        public Holder(boolean flag) {
            this.box = flag ? new Box(1) : new Box("two");
        }

        public Holder(Box box) {
            this.box = box;
        }

        public static Holder make(boolean flag, int n) {
            return new Holder(flag ? new Box(n > 0 ? new Box(n) : null) : new Box(new Holder(n % 2 == 0)));
        }
    }

    public static Object[] build(int n) {
        return new Object[] {
            new Child(n), new Child(n, n < 0), new Child(n > 5 ? "long" : null), new Child((long) n),
            Holder.make(n > 0, n), new Box(new StringBuilder(n > 1 ? "x" : "y").append(n)),
        };
    }
}
