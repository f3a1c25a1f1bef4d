package z;

/** The class the zip conformance jars carry to be instrumented. */
public class Traced {
    static int count(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i % 3 == 0 ? i : 1;
        }
        return s;
    }

    static String which() {
        return "base";
    }

    public static void main(String[] args) {
        System.out.println("traced " + which() + " " + count(10));
    }
}
