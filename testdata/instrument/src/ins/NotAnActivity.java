package ins;

/** Has a method named onWindowFocusChanged(boolean) but is no Activity: must not get AppMethodBeat.at. */
public class NotAnActivity {
    int calls;

    public void onWindowFocusChanged(boolean hasFocus) {
        calls++;
    }
}
