package android.app;

/**
 * Stand-in for the SDK's Activity. At run time the tests put the beat stub
 * (testdata/runtime/beat, which has its own Activity) first on the class
 * path, so this class declares nothing beyond what that one has.
 */
public class Activity {
    public void onWindowFocusChanged(boolean hasFocus) {
    }
}
