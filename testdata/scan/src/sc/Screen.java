package sc;

/** An Activity whose focus method calls super. */
public class Screen extends android.app.Activity {
    void before() {}

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        super.onWindowFocusChanged(hasFocus);
    }
}
