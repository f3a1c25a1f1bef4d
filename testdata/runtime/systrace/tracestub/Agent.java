package tracestub;

/**
 * Java agent (Premain-Class of the stub jar the Go tests build) that
 * initializes android.os.Trace before main, so its exit report is printed
 * even when the program never calls it.
 */
public final class Agent {
    private Agent() {
    }

    public static void premain(String args) throws ClassNotFoundException {
        Class.forName("android.os.Trace", true, Agent.class.getClassLoader());
    }
}
