import android.os.Trace;
import com.tencent.matrix.trace.core.AppMethodBeat;

/**
 * Drives the runtime stand-ins directly (no instrumentation), to check the
 * files they write: the Go test knows exactly which calls happen here.
 */
public final class StubCheck {
    public static void main(String[] args) throws Exception {
        AppMethodBeat.i(1);
        AppMethodBeat.i(2);
        Thread.sleep(5);
        AppMethodBeat.o(2);
        AppMethodBeat.i(3);
        AppMethodBeat.o(3);
        AppMethodBeat.o(1);
        AppMethodBeat.i(AppMethodBeat.METHOD_ID_MAX); // ignored, as in Matrix
        Thread other = new Thread(() -> {
            AppMethodBeat.i(7); // not the main thread: ignored
            AppMethodBeat.o(7);
        });
        other.start();
        other.join();

        Trace.beginSection("1");
        Trace.beginSection("custom section");
        Trace.endSection();
        Trace.endSection();
        Thread worker = new Thread(() -> {
            Trace.beginSection("2");
            Trace.endSection();
        }, "worker thread");
        worker.start();
        worker.join();
        try {
            Trace.beginSection("x".repeat(128));
            throw new AssertionError("a 128-char section name must throw");
        } catch (IllegalArgumentException expected) {
            // as android.os.Trace does
        }

        AppMethodBeat.i(4); // still open at exit
    }
}
