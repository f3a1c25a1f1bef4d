package app.core;

/** -traceclass: every method with code is traced, getters included. */
public class Getters {
    private int x;

    public int getX() {
        return x;
    }

    public void setX(int x) {
        this.x = x;
    }

    /** a nested class of a traced class is traced too */
    public static class Inner {
        int value() {
            return 1;
        }
    }
}
