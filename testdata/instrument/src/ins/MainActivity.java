package ins;

/** Overrides onWindowFocusChanged and calls super, which reaches Activity through the abstract BaseActivity. */
public class MainActivity extends BaseActivity {
    @Override
    protected String title() {
        return "main";
    }

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        super.onWindowFocusChanged(hasFocus);
        events.append("focus=").append(hasFocus);
    }
}
