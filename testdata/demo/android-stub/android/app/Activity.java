package android.app;

import android.os.Bundle;

/** Stand-in for Android's Activity: the few methods the demo app overrides. */
public class Activity {
    protected void onCreate(Bundle savedInstanceState) {
    }

    protected void onResume() {
    }

    public void onWindowFocusChanged(boolean hasFocus) {
    }

    public void finish() {
    }
}
