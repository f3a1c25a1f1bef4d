package ins;

import android.app.Activity;

/** Abstract base Activity without onWindowFocusChanged (Matrix issue #392 territory). */
public abstract class BaseActivity extends Activity {
    protected final StringBuilder events = new StringBuilder();

    protected abstract String title();

    public String events() {
        return title() + "[" + events + "]";
    }
}
