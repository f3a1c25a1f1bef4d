package sc;

/** An Activity whose focus method never calls super. */
public class Deaf extends Screen {
    @Override
    public void onWindowFocusChanged(boolean hasFocus) {}
}
