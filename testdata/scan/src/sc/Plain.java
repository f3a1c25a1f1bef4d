package sc;

/** Methods with code, without code, annotated, and a static look-alike of the focus method. */
public abstract class Plain {
    public int add(int a, int b) {
        return a + b;
    }

    @Seen
    @Kept
    protected void annotated() {}

    public abstract void noCode();

    public native void nativeCode();

    public static void onWindowFocusChanged(boolean hasFocus) {}
}
