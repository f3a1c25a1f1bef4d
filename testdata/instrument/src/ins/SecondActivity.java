package ins;

/** Inherits MainActivity's onWindowFocusChanged without overriding it. */
public class SecondActivity extends MainActivity {
    @Override
    protected String title() {
        return "second";
    }
}
