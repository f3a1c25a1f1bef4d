package sc;

import android.os.Trace;
import com.tencent.matrix.trace.core.AppMethodBeat;

/** Methods that call the runtime as the instrumenter would, and one that calls it with a computed value. */
public class Already {
    public void beat() {
        AppMethodBeat.i(7);
        work();
        AppMethodBeat.o(7);
    }

    public void section() {
        Trace.beginSection("12");
        work();
        Trace.endSection();
    }

    public void computed(int n) {
        AppMethodBeat.i(n);
        AppMethodBeat.o(n);
    }

    void work() {}
}
