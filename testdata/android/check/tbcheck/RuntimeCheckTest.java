package tbcheck;

import static org.junit.Assert.assertEquals;

import android.os.Looper;
import android.os.Process;
import android.os.SystemClock;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import tbapp.Background;
import tbapp.PlainActivity;
import tbapp.SuperActivity;
import tbapp.Work;

/**
 * The instrumented app on Android's own framework (Robolectric) with
 * tracebeat's runtime on the class path in place of Matrix's: two
 * Activities made and shown (the first one's focus ends the cold start),
 * both destroyed and one made again (a warm start), the slow message of Work run on the main looper (the
 * clock moved 800 ms by the main thread's sleeps, as on a device), and two
 * threads of the app's own computing. It writes to tbcheck.out what the
 * app computed, and each thread's name with the tid the framework gives
 * it; the recording (tracebeat.trace) is written when the JVM exits, and
 * scripts/android-check.sh decodes it.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, shadows = DeviceClock.class)
public class RuntimeCheckTest {
    @Test
    public void recordsEveryThread() throws Exception {
        StringBuilder out = new StringBuilder();
        long start = SystemClock.elapsedRealtime(); // the clock moves only when the main thread sleeps
        out.append(Work.throughFrames("7")).append(';'); // the app's first traced call, as in its Application
        ActivityController<PlainActivity> first = Robolectric.buildActivity(PlainActivity.class).setup();
        SystemClock.sleep(250); // the first Activity focused at least 250 ms after the app's first call
        long focused = SystemClock.elapsedRealtime();
        first.windowFocusChanged(true);
        CheckFiles.write("tbcheck.cold", (focused - start) + "\n");
        // A second first focus: the cold start is the first's; made while
        // the first lives, it is no warm start either.
        ActivityController<SuperActivity> second = Robolectric.buildActivity(SuperActivity.class).setup();
        second.windowFocusChanged(true);
        // Both gone (the app left, its process kept), one made again: a
        // warm start, from its creation to its first focus (120 ms of sleep
        // and the lifecycle steps Robolectric takes).
        first.pause().stop().destroy();
        second.pause().stop().destroy();
        long created = SystemClock.elapsedRealtime();
        ActivityController<PlainActivity> again = Robolectric.buildActivity(PlainActivity.class).create();
        SystemClock.sleep(120);
        again.start().postCreate(null).resume().visible();
        CheckFiles.write("tbcheck.warm", (SystemClock.elapsedRealtime() - created) + "\n");
        again.windowFocusChanged(true);
        // Made while that one lives: no warm start.
        Robolectric.buildActivity(SuperActivity.class).setup().windowFocusChanged(true);
        Work.postSlowMessage(out);
        ShadowLooper.idleMainLooper();
        Background[] work = {new Background(1000), new Background(2000)};
        Thread[] threads = new Thread[work.length];
        StringBuilder tids = new StringBuilder("main " + Process.myTid() + "\n");
        for (int i = 0; i < work.length; i++) {
            threads[i] = new Thread(work[i], "bg-" + i);
            threads[i].start();
        }
        for (int i = 0; i < work.length; i++) {
            threads[i].join();
            out.append(" bg-").append(i).append(' ').append(work[i].sum()).append(';');
            tids.append("bg-").append(i).append(' ').append(work[i].tid()).append('\n');
        }
        assertEquals(Looper.getMainLooper().getThread(), Thread.currentThread());
        CheckFiles.write("tbcheck.out", out.toString());
        CheckFiles.write("tbcheck.tids", tids.toString());
    }
}
