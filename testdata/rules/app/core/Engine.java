package app.core;

public class Engine {
    private int state;

    /** traced: calls another method (Matrix's rules) */
    public void run() {
        helper(3);
    }

    /** ignored "single": calls no method (Matrix's rules) */
    int helper(int n) {
        state += n * 7;
        return state;
    }

    /** blocked: -blockclassmethods names it */
    public void skipped(int a, String[] b) {
        run();
    }

    /** traced: the same name with other parameters is not blocked */
    public void skipped(long a) {
        run();
    }

    /** traced: @Traced, although empty */
    @Traced
    public void marked() {
    }

    /** traced: @Visible (runtime retention), although empty */
    @Visible
    public void shown() {
    }

    /** ignored "empty": no rule forces it */
    public void unmarked() {
    }
}
