package android.app;

/** Test stand-in: the supertype AppMethodBeat.at(Activity, boolean) names. */
public class Activity {
    public void onWindowFocusChanged(boolean hasFocus) {}
}
