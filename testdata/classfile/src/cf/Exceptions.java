package cf;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * try/finally (returns, break and continue through finally, nested finally),
 * try-with-resources (several resources, suppressed exceptions, null
 * resource), multi-catch and nested try/catch with many handlers.
 */
public final class Exceptions {
    private Exceptions() {
    }

    public static final class Res implements Closeable {
        private final String name;
        private final boolean failOnClose;
        public static int closed;

        public Res(String name, boolean failOnClose) {
            this.name = name;
            this.failOnClose = failOnClose;
        }

        @Override
        public void close() throws IOException {
            closed++;
            if (failOnClose) {
                throw new IOException("close " + name);
            }
        }
    }

    public static class AppException extends Exception {
        public AppException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    public static final class DeepException extends AppException {
        public DeepException(String message) {
            super(message, null);
        }
    }

    @SuppressWarnings("finally")
    public static int returnInFinally(int x) {
        try {
            if (x > 0) {
                return x;
            }
            throw new IllegalStateException("negative");
        } finally {
            if (x > 100) {
                return 100;
            }
        }
    }

    public static int loopWithFinally(int[] xs) {
        int acc = 0;
        outer:
        for (int i = 0; i < xs.length; i++) {
            try {
                try {
                    if (xs[i] == 0) {
                        continue;
                    }
                    if (xs[i] < 0) {
                        break outer;
                    }
                    acc += 10 / xs[i];
                } finally {
                    acc++;
                }
            } finally {
                acc *= 2;
            }
        }
        return acc;
    }

    public static String resources(boolean failA, boolean failB) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Res a = new Res("a", failA); Res b = new Res("b", failB); Res none = null) {
            sb.append(a.name).append(b.name).append(none == null);
        } catch (IOException e) {
            sb.append(" caught ").append(e.getMessage()).append(" suppressed ").append(e.getSuppressed().length);
        } finally {
            sb.append(" closed ").append(Res.closed);
        }
        return sb.toString();
    }

    public static String manyHandlers(int kind) {
        try {
            try {
                switch (kind) {
                    case 0: throw new IllegalArgumentException("iae");
                    case 1: throw new ArrayIndexOutOfBoundsException(3);
                    case 2: throw new UnsupportedOperationException("uoe");
                    case 3: throw new DeepException("deep");
                    case 4: throw new IOException("io");
                    case 5: throw new StackOverflowError();
                    case 6: throw new UncheckedIOException(new IOException("inner"));
                    default: return "none";
                }
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                return "runtime " + e.getMessage();
            } catch (DeepException e) {
                throw new AppException("wrapped", e);
            } catch (IOException e) {
                try {
                    throw new RuntimeException(e);
                } catch (RuntimeException re) {
                    return "rethrown " + re.getCause().getMessage();
                }
            } catch (Error e) {
                return "error " + e.getClass().getSimpleName();
            } finally {
                Res.closed += 0;
            }
        } catch (AppException e) {
            return "app " + e.getCause().getMessage();
        } catch (UnsupportedOperationException e) {
            return "unsupported";
        } catch (Throwable t) {
            return "throwable " + t;
        }
    }
}
