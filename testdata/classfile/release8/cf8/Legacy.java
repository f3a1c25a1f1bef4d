package cf8;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Compiled with --release 8 (class-file version 52): lambdas, string
 * concatenation through StringBuilder (no indy before Java 9), synthetic
 * accessors between nested classes (no nestmates before Java 11), try/finally,
 * switch on strings and a constructor with a conditional super() argument.
 */
public class Legacy {
    private int secret = 5;

    public class Inner {
        int read() {
            return secret++;
        }
    }

    public static class Base {
        final Object o;

        Base(Object o) {
            this.o = o;
        }
    }

    public static class Derived extends Base {
        Derived(int x) {
            super(x > 0 ? new StringBuilder("pos") : new ArrayList<String>());
        }
    }

    public static String run(List<String> in) {
        Function<String, Integer> len = String::length;
        List<String> out = new ArrayList<>();
        for (String s : in) {
            switch (s) {
                case "Aa":
                case "BB":
                    out.add("collide " + s);
                    break;
                default:
                    try {
                        out.add(s + "=" + len.apply(s));
                    } finally {
                        out.add(";");
                    }
            }
        }
        synchronized (out) {
            out.add(String.valueOf(new Legacy().new Inner().read()) + new Derived(in.size()).o);
        }
        return String.join("", out);
    }

    public static void main(String[] args) {
        System.out.println(run(java.util.Arrays.asList("Aa", "xyz", "BB")));
    }
}
