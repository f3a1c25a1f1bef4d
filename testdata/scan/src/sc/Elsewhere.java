package sc;

/** The focus method's name and descriptor on a class that is no Activity. */
public class Elsewhere {
    public void onWindowFocusChanged(boolean hasFocus) {}
}
