package tbapp;

/** Overrides onWindowFocusChanged and calls super. */
public class SuperActivity extends BaseActivity {
    int focusChanges;

    @Override
    protected String title() {
        return "super";
    }

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        super.onWindowFocusChanged(hasFocus);
        focusChanges++;
    }
}
