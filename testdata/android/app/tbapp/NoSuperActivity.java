package tbapp;

/** Overrides onWindowFocusChanged and never calls super: focus stops here. */
public class NoSuperActivity extends BaseActivity {
    int focusChanges;

    @Override
    protected String title() {
        return "no super";
    }

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        focusChanges++;
        BaseActivity.LOG.append("nosuper focus ").append(hasFocus).append(';');
    }
}
