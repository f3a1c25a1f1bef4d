package tbapp;

/** Does not override onWindowFocusChanged. */
public class PlainActivity extends BaseActivity {
    @Override
    protected String title() {
        return "plain";
    }
}
