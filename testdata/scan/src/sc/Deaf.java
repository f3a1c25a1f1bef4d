package sc;

/** An Activity whose focus method never calls super; it calls a constructor of the same descriptor. */
public class Deaf extends Screen {
    Flag last;

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        last = new Flag(hasFocus);
    }
}
