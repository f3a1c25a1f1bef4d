package ins;

/**
 * Static initializers: a normal one, one that throws (the caller sees
 * ExceptionInInitializerError, then NoClassDefFoundError on the next use),
 * and one that runs nested calls while initializing.
 */
public final class StaticInit {
    private StaticInit() {
    }

    static final class Good {
        static final int VALUE;

        static {
            int v = 0;
            for (int i = 1; i <= 10; i++) {
                v += helper(i);
            }
            VALUE = v;
        }

        static int helper(int i) {
            return i * i;
        }
    }

    static final class Bad {
        static final int VALUE = explode();

        static int explode() {
            throw new IllegalStateException("static init failed");
        }
    }

    static final class Chained {
        static final String NAME = Good.VALUE + "-" + compute();

        static String compute() {
            return "chained";
        }
    }

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder("staticinit:");
        out.append(" good ").append(Good.VALUE);
        try {
            int v = Bad.VALUE;
            out.append(" bad ").append(v);
        } catch (ExceptionInInitializerError e) {
            out.append(" eiie ").append(e.getCause().getMessage());
        }
        try {
            int v = Bad.VALUE;
            out.append(" bad again ").append(v);
        } catch (NoClassDefFoundError e) {
            out.append(" ncdfe");
        }
        out.append(" chained ").append(Chained.NAME);
        System.out.println(out);
    }
}
