package android.app;

/**
 * Test stand-in for Android's Activity: just enough for the focus rule, whose
 * inserted onWindowFocusChanged calls super.onWindowFocusChanged(boolean).
 */
public class Activity {
    public void onWindowFocusChanged(boolean hasFocus) {
    }
}
