package beatstub;

/**
 * Java agent (Premain-Class of the stub jar the Go tests build) that
 * initializes AppMethodBeat before main, so its exit report is printed even
 * when the program never calls it (an uninstrumented run reports enter=0).
 * It loads nothing else and leaves the program's own classes alone.
 */
public final class Agent {
    private Agent() {
    }

    public static void premain(String args) throws ClassNotFoundException {
        Class.forName("com.tencent.matrix.trace.core.AppMethodBeat", true, Agent.class.getClassLoader());
    }
}
