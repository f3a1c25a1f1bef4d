package stubcheck;

import android.app.Activity;
import android.os.Trace;
import com.tencent.matrix.trace.core.AppMethodBeat;

/**
 * Calls the counting stubs directly with a known pattern so the Go tests can
 * check the stubs' bookkeeping and report format. Argument "beat" or
 * "trace" picks the stub; "unbalanced" adds known mistakes.
 */
public final class StubCheck {
    private StubCheck() {
    }

    static final class FocusActivity extends Activity {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean unbalanced = args.length > 1 && args[1].equals("unbalanced");
        if (args[0].equals("beat")) {
            beat(unbalanced);
        } else {
            trace(unbalanced);
        }
        System.out.println("stubcheck done");
    }

    private static void beat(boolean unbalanced) throws InterruptedException {
        AppMethodBeat.i(1);
        AppMethodBeat.i(2);
        AppMethodBeat.i(3);
        AppMethodBeat.o(3);
        AppMethodBeat.o(2);
        AppMethodBeat.at(new FocusActivity(), true);
        AppMethodBeat.at(new FocusActivity(), false);
        AppMethodBeat.at(new Activity(), true);
        Thread worker = new Thread(() -> {
            AppMethodBeat.i(10);
            AppMethodBeat.o(10);
        }, "stub worker");
        worker.start();
        worker.join();
        AppMethodBeat.o(1);
        if (unbalanced) {
            AppMethodBeat.i(4);
            AppMethodBeat.i(5);
            AppMethodBeat.o(4); // skips 5: one mismatch, 5 and 4 dropped
            AppMethodBeat.o(99); // never entered: a second mismatch
            AppMethodBeat.i(6); // left open
        }
    }

    private static void trace(boolean unbalanced) throws InterruptedException {
        Trace.beginSection("outer");
        Trace.beginSection("inner");
        Trace.endSection();
        Thread worker = new Thread(() -> {
            Trace.beginSection("worker");
            Trace.endSection();
        }, "trace worker");
        worker.start();
        worker.join();
        StringBuilder tooLong = new StringBuilder();
        for (int i = 0; i < 128; i++) {
            tooLong.append('x');
        }
        try {
            Trace.beginSection(tooLong.toString());
            System.out.println("long name accepted");
        } catch (IllegalArgumentException e) {
            System.out.println("long name rejected");
        }
        Trace.endSection();
        if (unbalanced) {
            Trace.endSection(); // nothing open
            Trace.beginSection("left open");
        }
    }
}
