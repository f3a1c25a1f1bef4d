package tbcheck;

import android.app.Application;
import android.content.Intent;
import android.os.SystemClock;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.Shadows;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import tbapp.Work;

/**
 * The app as the launcher starts it: no tracebeat.trace property. The
 * runtime finds the app's files folder itself; the test asks for a dump
 * the two ways docs/android.md says, with more work between, while the
 * app runs: a file beside the recording, ending in .dump, then the
 * broadcast com.github.tracebeat.DUMP. It writes to
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
        File trace = CheckFiles.traceOf(app);
        String first = dump(trace, 1, null);
        Work.postSlowMessage(out);
        ShadowLooper.idleMainLooper();
        // The second by the broadcast adb sends (the shell holds DUMP; here
        // the app sends it, given DUMP as the shell has it).
        Shadows.shadowOf(app).grantPermissions("android.permission.DUMP");
        String second = dump(trace, 2, app);
        CheckFiles.write("tbcheck.start", first + "\n" + second + "\n" + out + "\n");
    }

    /**
     * Asks for a dump with TRACE.dump, or with the broadcast
     * com.github.tracebeat.DUMP when by is the app, and waits (on the main
     * thread's clock, which the monitor reads, and in real time) for
     * TRACE-dump-N.trace.
     */
    private static String dump(File trace, int n, Application by) throws IOException {
        String stem = trace.getPath().replaceFirst("\\.trace$", "");
        File done = new File(stem + "-dump-" + n + ".trace");
        File ask = new File(trace.getPath() + ".dump");
        for (int i = 0; i < 400 && !done.exists(); i++) {
            if (by != null && i % 40 == 0) {
                by.sendBroadcast(new Intent("com.github.tracebeat.DUMP"));
                ShadowLooper.idleMainLooper(); // the receiver runs on the main thread
            } else if (by == null && ask.getParentFile().isDirectory() && !ask.exists()) {
                new FileOutputStream(ask).close();
            }
            SystemClock.sleep(25);
        }
        if (by != null && ask.exists()) {
            return "no dump " + done + ": a request file was there";
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
