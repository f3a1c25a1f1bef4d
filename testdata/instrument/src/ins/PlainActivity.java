package ins;

/** Concrete Activity with no onWindowFocusChanged anywhere in its own chain below android.app.Activity. */
public class PlainActivity extends BaseActivity {
    @Override
    protected String title() {
        return "plain";
    }
}
