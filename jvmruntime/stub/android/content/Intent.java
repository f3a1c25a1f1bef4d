package android.content;

/** Compile-time stand-in for Android's Intent: the runtime jar never carries it. */
public class Intent {
    public String getAction() {
        throw new UnsupportedOperationException("stub");
    }
}
