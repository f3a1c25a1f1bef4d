package tbcheck;

import android.os.Looper;
import java.io.File;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.annotation.Config;
import org.robolectric.annotation.LooperMode;
import org.robolectric.shadows.ShadowLooper;
import tbapp.Work;

/**
 * The main looper as a device runs it (Robolectric's instrumentation mode:
 * Looper.loop on a thread of its own, which tells its printer of each
 * message), with tracebeat's runtime watching it: two identical slow
 * messages (800 ms on the boot clock, a quiet 400 ms between them), then a
 * message stuck for 5.2 s that, still inside, waits for the ANR report to
 * appear. It writes to tbcheck.looper what the app computed and whether
 * the ANR report was there before the stuck message returned;
 * internal/androidcheck decodes the reports.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, shadows = DeviceClock.class)
@LooperMode(LooperMode.Mode.INSTRUMENTATION_TEST)
public class LooperCheckTest {
    @Test
    public void watchesTheMainLooper() throws Exception {
        final StringBuilder out = new StringBuilder();
        final String trace = System.getProperty("tracebeat.trace");
        final boolean[] seen = new boolean[1];
        Work.postSlowMessage(out);
        Work.postPause(400);
        Work.postSlowMessage(out);
        Work.postStuckMessage(5200, new Runnable() {
            @Override
            public void run() {
                if (trace == null) {
                    return; // the app alone: nothing watches it
                }
                File anr = new File(trace.replaceFirst("\\.trace$", "-anr-1.trace"));
                for (int i = 0; i < 200 && !anr.exists(); i++) {
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                seen[0] = anr.exists();
            }
        });
        ShadowLooper shadow = org.robolectric.Shadows.shadowOf(Looper.getMainLooper());
        shadow.idle();
        CheckFiles.write("tbcheck.looper", out + (trace == null ? "" : " anr_before_return=" + (seen[0] ? "yes" : "no")));
    }
}
