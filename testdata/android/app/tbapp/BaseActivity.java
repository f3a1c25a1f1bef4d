package tbapp;

import android.app.Activity;
import android.os.Bundle;

/** The abstract base of the app's Activities: it overrides nothing about focus. */
public abstract class BaseActivity extends Activity {
    static final StringBuilder LOG = new StringBuilder();

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        LOG.append(getClass().getSimpleName()).append(" created;");
        setTitle(title());
    }

    protected abstract String title();
}
