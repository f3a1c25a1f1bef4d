package z;

/**
 * The Java 11 variant of z.Traced, stored under META-INF/versions/11/ of a
 * multi-release jar: a JVM of release 11 or newer loads this one.
 */
public class Traced {
    static int count(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i % 3 == 0 ? i : 2;
        }
        return s;
    }

    static String which() {
        return "v11";
    }

    static String extra() {
        return "!";
    }

    public static void main(String[] args) {
        System.out.println("traced " + which() + " " + count(10) + extra());
    }
}
