package ins;

/**
 * Exceptions thrown through several frames, caught, wrapped and rethrown;
 * finally blocks, including return inside try and inside finally. Every
 * frame the exception passes must still be closed (o) by the instrumenter's
 * catch-all handler.
 */
public final class Throwing {
    private Throwing() {
    }

    static int depth3(int x) {
        if (x % 3 == 0) {
            throw new IllegalArgumentException("bad " + x);
        }
        return x * 2;
    }

    static int depth2(int x) {
        return depth3(x) + 1;
    }

    static int depth1(int x) {
        try {
            return depth2(x);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("wrapped " + e.getMessage(), e);
        }
    }

    static String catchAtTop(int x) {
        try {
            return "ok " + depth1(x);
        } catch (IllegalStateException e) {
            return "caught " + e.getMessage() + " cause " + e.getCause().getClass().getSimpleName();
        }
    }

    static int rethrowSame(int x) throws Exception {
        try {
            return depth2(x);
        } catch (RuntimeException e) {
            throw e;
        }
    }

    @SuppressWarnings("finally")
    static int returnInFinally(int x) {
        try {
            if (x > 0) {
                throw new RuntimeException("discarded");
            }
            return -1;
        } finally {
            return x * 10;
        }
    }

    static int returnInTry(int[] box) {
        try {
            box[0]++;
            return box[0];
        } finally {
            box[0] += 100;
        }
    }

    static long finallyThrows(long x) {
        try {
            return x;
        } finally {
            if (x > 5) {
                throw new UnsupportedOperationException("from finally " + x);
            }
        }
    }

    static double nested(double d) {
        try {
            try {
                if (d < 0) {
                    throw new ArithmeticException("negative");
                }
                return Math.sqrt(d);
            } finally {
                if (d == 4.0) {
                    throw new IllegalStateException("four");
                }
            }
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    static void voidThrower(boolean t) {
        if (t) {
            throw new Error("void error");
        }
    }

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder("throwing:");
        for (int i = 1; i <= 4; i++) {
            out.append(' ').append(catchAtTop(i));
        }
        try {
            rethrowSame(3);
        } catch (Exception e) {
            out.append(" rethrown ").append(e.getMessage());
        }
        int[] box = {0};
        out.append(" rif ").append(returnInFinally(3)).append(' ').append(returnInFinally(0));
        out.append(" rit ").append(returnInTry(box)).append(' ').append(box[0]);
        out.append(" ft ").append(finallyThrows(2));
        try {
            finallyThrows(9);
        } catch (UnsupportedOperationException e) {
            out.append(' ').append(e.getMessage());
        }
        out.append(" nested ").append(nested(9)).append(' ').append(nested(-1));
        try {
            nested(4);
        } catch (IllegalStateException e) {
            out.append(' ').append(e.getMessage());
        }
        voidThrower(false);
        try {
            voidThrower(true);
        } catch (Error e) {
            out.append(' ').append(e.getMessage());
        }
        System.out.println(out);
    }
}
