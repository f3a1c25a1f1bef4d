package sc;

import com.tencent.matrix.trace.core.AppMethodBeat;

/** A class that calls the runtime and has a method without code. */
public abstract class AbstractBeat {
    public void beat() {
        AppMethodBeat.i(9);
        AppMethodBeat.o(9);
    }

    public abstract void later();
}
