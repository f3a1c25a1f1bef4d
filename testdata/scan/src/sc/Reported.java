package sc;

import com.tencent.matrix.trace.core.AppMethodBeat;

/** An Activity whose focus method already reports focus, as the instrumenter writes it. */
public class Reported extends android.app.Activity {
    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        AppMethodBeat.at(this, hasFocus);
    }
}
