package tbcheck;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.app.Activity;
import android.os.Looper;
import com.tencent.matrix.trace.core.AppMethodBeat;
import com.tencent.matrix.trace.items.MethodItem;
import com.tencent.matrix.trace.util.TraceDataUtils;
import java.io.IOException;
import java.util.LinkedList;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import tbapp.NoSuperActivity;
import tbapp.PlainActivity;
import tbapp.SuperActivity;
import tbapp.Work;

/**
 * The instrumented app of testdata/android/app on Android's own framework
 * (Robolectric) with Matrix's own AppMethodBeat (matrix-trace-canary) on
 * the class path. It writes what it saw to the files named by system
 * properties, for scripts/android-check.sh to decode and check:
 * tbcheck.stack (Matrix's stack lines, from Matrix's own buffer and code),
 * tbcheck.key (its stack key), tbcheck.raw (Matrix's buffer as numbers).
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, shadows = DeviceClock.class)
public class AndroidCheckTest {
    /**
     * Matrix starts on the first i() of the main thread and then hooks the
     * framework's main handler through hidden fields
     * (ActivityThreadHacker: ActivityThread.sCurrentActivityThread, mH,
     * Handler.mCallback). On a device the field holds the app's
     * ActivityThread; under Robolectric it is null, Matrix's reflection
     * fails, and its error handler then throws a NullPointerException of
     * its own (it prints e.getCause(), which is null), so every i() would
     * fail. The field is given the ActivityThread Robolectric made, as a
     * device has it. Returns what was done, for the report.
     */
    static String giveMatrixItsActivityThread() throws Exception {
        java.lang.reflect.Field f = Class.forName("android.app.ActivityThread").getDeclaredField("sCurrentActivityThread");
        f.setAccessible(true);
        if (f.get(null) != null) {
            return "ActivityThread.sCurrentActivityThread was set";
        }
        f.set(null, org.robolectric.RuntimeEnvironment.getActivityThread());
        return "ActivityThread.sCurrentActivityThread was null under Robolectric: set to Robolectric's ActivityThread";
    }

    @Test
    public void beatMode() throws Exception {
        CheckFiles.write("tbcheck.matrix", giveMatrixItsActivityThread() + "\n");
        AppMethodBeat beat = AppMethodBeat.getInstance();
        // Matrix starts recording on the first i() of the main thread; the
        // Activities' creation and focus are those calls (focus counts are
        // FocusCheckTest's).
        for (Class<? extends Activity> c : java.util.Arrays.asList(NoSuperActivity.class, SuperActivity.class, PlainActivity.class)) {
            ActivityController<? extends Activity> controller = Robolectric.buildActivity(c).setup();
            controller.windowFocusChanged(true);
        }

        // The slow message, the exception and the constructor, recorded in
        // Matrix's buffer between two marks, as its EvilMethodTracer takes it.
        AppMethodBeat.IndexRecord begin = beat.maskIndex("tbcheck-begin");
        StringBuilder out = new StringBuilder();
        Work.postSlowMessage(out);
        ShadowLooper.idleMainLooper();
        out.append(Work.throughFrames("12 ")).append(';').append(Work.throughFrames("x")).append(';');
        out.append(Work.picky(3)).append(';').append(Work.picky(-1)).append(';');
        long[] data = beat.copyData(begin);
        begin.release();
        StringBuilder raw = new StringBuilder();
        for (long record : data) {
            raw.append(record).append('\n');
        }
        CheckFiles.write("tbcheck.raw", raw.toString()); // Matrix's own buffer, as AppMethodBeat keeps it
        assertTrue("the slow message ran: " + out, out.toString().startsWith("slow "));
        assertTrue("Matrix recorded the run: " + data.length + " records", data.length > 0);

        LinkedList<MethodItem> stack = new LinkedList<>();
        // Not strict: a strict read starts at the main looper's dispatch
        // record, which Matrix's LooperMonitor writes from the Looper's
        // message printer, and Robolectric's looper does not print.
        TraceDataUtils.structuredDataToStack(data, stack, false, android.os.SystemClock.uptimeMillis());
        TraceDataUtils.trimStack(stack, 60, new TraceDataUtils.IStructuredDataFilter() {
            @Override
            public boolean isFilter(long during, int filterCount) {
                return during < filterCount * 5L;
            }

            @Override
            public int getFilterMaxCount() {
                return 60;
            }

            @Override
            public void fallback(List<MethodItem> stack, int size) {
                while (stack.size() > 60) {
                    stack.remove(stack.size() - 1);
                }
            }
        });
        StringBuilder lines = new StringBuilder();
        for (MethodItem m : stack) {
            lines.append(m.toString()).append('\n'); // Matrix's stack line: depth,methodId,count,cost
        }
        long total = 0;
        for (MethodItem m : stack) {
            if (m.depth == 0) {
                total += m.durTime;
            }
        }
        CheckFiles.write("tbcheck.stack", lines.toString());
        CheckFiles.write("tbcheck.key", TraceDataUtils.getTreeKey(stack, total) + "\n");
        CheckFiles.write("tbcheck.out", out + "\n");
        assertEquals(Looper.getMainLooper().getThread(), Thread.currentThread());
    }
}
