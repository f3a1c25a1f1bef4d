package shapes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Compiled with Eclipse's compiler (ecj), whose code differs from javac's:
 * its own string-switch and finally layouts, its own stack map frames,
 * lambdas and try-with-resources.
 */
public class EShapes {
    private final int v;

    public EShapes(int v) {
        this(v, v > 10 ? "big" : "small");
    }

    private EShapes(int v, String label) {
        super();
        this.v = v + label.length();
    }

    static int strings(String s) {
        switch (s) {
            case "Aa": return 1;
            case "BB": return 2;
            case "alpha": return 3;
            default: return s.length();
        }
    }

    static int withFinally(int x) {
        int r = 0;
        try {
            if (x < 0) {
                throw new IllegalArgumentException();
            }
            r = x * 2;
            return r;
        } catch (IllegalArgumentException e) {
            r = -1;
            return r;
        } finally {
            r++;
        }
    }

    static int resources(int n) throws Exception {
        class Res implements AutoCloseable {
            int closed;
            @Override
            public void close() {
                closed++;
            }
        }
        Res r = new Res();
        try (Res a = r; Res b = r) {
            if (n > 2) {
                throw new Exception("x");
            }
        } catch (Exception e) {
            return -r.closed;
        }
        return r.closed;
    }

    public static void main(String[] args) throws Exception {
        List<String> out = new ArrayList<>();
        out.add(String.valueOf(new EShapes(3).v + new EShapes(30).v));
        out.add(strings("Aa") + "," + strings("BB") + "," + strings("zeta"));
        out.add(withFinally(5) + "," + withFinally(-5));
        out.add(resources(1) + "," + resources(5));
        IntUnaryOperator twice = i -> i * 2;
        out.add(String.valueOf(twice.applyAsInt(21)));
        System.out.println("ecj: " + String.join(" ", out));
    }
}
