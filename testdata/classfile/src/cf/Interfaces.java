package cf;

/** Interfaces with default, static and private methods (InterfaceMethodref, invokeinterface, invokespecial/invokestatic on interfaces). */
public final class Interfaces {
    private Interfaces() {
    }

    public interface Greeter {
        String name();

        default String greet() {
            return decorate("hello " + name());
        }

        private String decorate(String s) {
            return "[" + s + "]";
        }

        static Greeter of(String n) {
            return () -> n;
        }

        private static int helper() {
            return 1;
        }

        default int count() {
            return helper();
        }
    }

    public interface Loud extends Greeter {
        @Override
        default String greet() {
            return Greeter.super.greet().toUpperCase();
        }
    }

    public static final class Impl implements Loud {
        @Override
        public String name() {
            return "impl";
        }
    }

    public abstract static class Partial implements Greeter {
        public abstract int extra();

        public native long nativeCall(int x);
    }

    public static String run() {
        Greeter g = Greeter.of("x");
        Loud l = new Impl();
        return g.greet() + l.greet() + g.count();
    }
}
