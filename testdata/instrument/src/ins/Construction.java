package ins;

/**
 * Constructors that throw before super() (while evaluating its arguments,
 * when `this` is still uninitialized) and after it, delegate with this(...),
 * and use conditionals and new in their arguments.
 */
public final class Construction {
    private Construction() {
    }

    static class Base {
        final int v;

        Base(int v) {
            this.v = v;
        }
    }

    static final class Checked extends Base {
        final String tag;

        Checked(int v) {
            super(validate(v));
            if (v > 100) {
                throw new IllegalStateException("after super " + v);
            }
            this.tag = "v" + v;
        }

        Checked(String s) {
            this(s == null ? -1 : Integer.parseInt(s));
        }

        Checked(int a, int b) {
            super(b != 0 ? a / b : new Base(a).v);
            this.tag = "div";
        }

        static int validate(int v) {
            if (v < 0) {
                throw new IllegalArgumentException("before super " + v);
            }
            return v;
        }
    }

    static final class Wrapper {
        final Base inner;

        Wrapper(boolean big, int n) {
            this.inner = big ? new Base(n * 1000) : new Checked(n);
        }
    }

    static String attempt(String label, java.util.function.Supplier<Object> make) {
        try {
            Object o = make.get();
            if (o instanceof Checked c) {
                return label + "=" + c.v + "/" + c.tag;
            }
            return label + "=" + ((Wrapper) o).inner.v;
        } catch (RuntimeException e) {
            return label + "!" + e.getClass().getSimpleName() + ":" + e.getMessage();
        }
    }

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder("construction:");
        out.append(' ').append(attempt("ok", () -> new Checked(7)));
        out.append(' ').append(attempt("before", () -> new Checked(-3)));
        out.append(' ').append(attempt("after", () -> new Checked(101)));
        out.append(' ').append(attempt("this", () -> new Checked("12")));
        out.append(' ').append(attempt("thisnull", () -> new Checked((String) null)));
        out.append(' ').append(attempt("parse", () -> new Checked("x")));
        out.append(' ').append(attempt("div", () -> new Checked(9, 3)));
        out.append(' ').append(attempt("div0", () -> new Checked(9, 0)));
        out.append(' ').append(attempt("wrapbig", () -> new Wrapper(true, 2)));
        out.append(' ').append(attempt("wrapsmall", () -> new Wrapper(false, 2)));
        out.append(' ').append(attempt("wrapbad", () -> new Wrapper(false, -2)));
        System.out.println(out);
    }
}
