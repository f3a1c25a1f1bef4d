package ins;

/**
 * Runs every instrumenter fixture program in one JVM (JVM start-up is the
 * slow part of a test). Each program prints one line starting with its name.
 */
public final class AllPrograms {
    private AllPrograms() {
    }

    public static void main(String[] args) throws Exception {
        Throwing.main(args);
        Locking.main(args);
        Construction.main(args);
        Recursion.main(args);
        Functional.main(args);
        StaticInit.main(args);
        Threads.main(args);
        Focus.main(args);
        Returns.main(args);
        Big.main(args);
    }
}
