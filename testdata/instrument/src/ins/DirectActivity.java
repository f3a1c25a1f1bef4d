package ins;

import android.app.Activity;

/** Extends Activity directly and overrides onWindowFocusChanged WITHOUT calling super. */
public class DirectActivity extends Activity {
    String last = "none";

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        last = hasFocus ? "gained" : "lost";
    }
}
