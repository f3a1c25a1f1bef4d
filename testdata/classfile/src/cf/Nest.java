package cf;

/** Nestmates: private members used across nest members without synthetic accessors (NestHost/NestMembers). */
public class Nest {
    private int secret = 42;
    private static long counter;

    private int twice() {
        return secret * 2;
    }

    private static void bump() {
        counter++;
    }

    public class Inner {
        private String name = "inner";

        int peek() {
            bump();
            return secret + twice();
        }

        public class Deeper {
            int deep() {
                secret++;
                return secret + name.length();
            }
        }
    }

    public static class Nested {
        private int hidden(Nest n) {
            n.secret = 7;
            return n.twice();
        }
    }

    public int readInner(Inner i) {
        return i.name.length() + new Nested().hidden(this);
    }

    public static long count() {
        return counter;
    }
}
