package ins;

/**
 * Recursion: plain, mutual, deep (thousands of frames), and deep recursion
 * unwound by an exception from the bottom, so thousands of frames close on
 * the exceptional path.
 */
public final class Recursion {
    private Recursion() {
    }

    static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static boolean isEven(int n) {
        return n == 0 || isOdd(n - 1);
    }

    static boolean isOdd(int n) {
        return n != 0 && isEven(n - 1);
    }

    static int deep(int n) {
        if (n == 0) {
            return 0;
        }
        return deep(n - 1) + 1;
    }

    static int deepThrow(int n) {
        if (n == 0) {
            throw new IllegalStateException("bottom");
        }
        return deepThrow(n - 1) + 1;
    }

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder("recursion:");
        out.append(" fib ").append(fib(15));
        out.append(" even ").append(isEven(101)).append(' ').append(isEven(300));
        out.append(" deep ").append(deep(3000));
        try {
            deepThrow(3000);
        } catch (IllegalStateException e) {
            out.append(" unwound ").append(e.getMessage());
        }
        System.out.println(out);
    }
}
