package sc;

/** An interface with the focus method. */
public interface Focusable {
    void onWindowFocusChanged(boolean hasFocus);
}
