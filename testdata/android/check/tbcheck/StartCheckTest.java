package tbcheck;

import android.app.Application;
import android.os.SystemClock;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import tbapp.Work;

/**
 * The app as the launcher starts it: no tracebeat.trace property. The
 * runtime finds the app's files folder itself; the test asks for a dump
 * the way docs/android.md says (a file beside the recording, ending in
 * .dump), twice, with more work between, while the app runs. It writes to
 * tbcheck.start the two dumps' paths and what the app computed, and copies
 * the dumps beside it (TBCHECK.START-N.trace): Robolectric removes the
 * app's folders when the test ends.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, shadows = DeviceClock.class)
public class StartCheckTest {
    @Test
    public void recordsIntoTheFilesFolder() throws Exception {
        StringBuilder out = new StringBuilder();
        Work.postSlowMessage(out);
        ShadowLooper.idleMainLooper();
        Application app = RuntimeEnvironment.getApplication();
        String name = Application.getProcessName();
        if (name == null || name.isEmpty()) {
            name = app.getPackageName();
        }
        File trace = new File(new File(app.getFilesDir(), "tracebeat"), name.replace(':', '-') + ".trace");
        String first = dump(trace, 1);
        Work.postSlowMessage(out);
        ShadowLooper.idleMainLooper();
        String second = dump(trace, 2);
        CheckFiles.write("tbcheck.start", first + "\n" + second + "\n" + out + "\n");
    }

    /**
     * Asks for a dump with TRACE.dump and waits (on the main thread's clock,
     * which the monitor reads, and in real time) for TRACE-dump-N.trace.
     */
    private static String dump(File trace, int n) throws IOException {
        String stem = trace.getPath().replaceFirst("\\.trace$", "");
        File done = new File(stem + "-dump-" + n + ".trace");
        File ask = new File(trace.getPath() + ".dump");
        for (int i = 0; i < 400 && !done.exists(); i++) {
            if (ask.getParentFile().isDirectory() && !ask.exists()) {
                new FileOutputStream(ask).close();
            }
            SystemClock.sleep(25);
        }
        if (!done.exists()) {
            return "no dump " + done;
        }
        String copy = System.getProperty("tbcheck.start");
        if (copy != null) {
            java.nio.file.Files.copy(done.toPath(), new File(copy + "-" + n + ".trace").toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return done.getPath();
    }
}
