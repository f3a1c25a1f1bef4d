package tbcheck;

import android.app.Application;
import android.os.SystemClock;
import java.io.File;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import tbapp.Work;

/**
 * The app as the launcher starts it (no system property of tracebeat's),
 * with a runtime jar that carries mode=stream: the recording streams into
 * the app's files folder from the first traced call. The test runs the
 * slow message twice, lets the clock move past a few flushes, and copies
 * the stream as it is while the app runs (as adb would pull it) to
 * tbcheck.stream, whose first line is the stream's path.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, shadows = DeviceClock.class)
public class StreamCheckTest {
    @Test
    public void streamsIntoTheFilesFolder() throws Exception {
        StringBuilder out = new StringBuilder();
        Work.postSlowMessage(out); // the app's first traced call: the recorder starts here
        ShadowLooper.idleMainLooper();
        Work.postSlowMessage(out);
        ShadowLooper.idleMainLooper();
        Application app = RuntimeEnvironment.getApplication();
        File trace = CheckFiles.traceOf(app);
        for (int i = 0; i < 40; i++) {
            SystemClock.sleep(25); // the monitor writes a chunk every tracebeat.flush of this clock
        }
        String copy = System.getProperty("tbcheck.stream");
        if (trace.exists() && copy != null) {
            java.nio.file.Files.copy(trace.toPath(), new File(copy + ".trace").toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        CheckFiles.write("tbcheck.stream", trace.getPath() + "\n" + out + "\n");
    }
}
