package tbcheck;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.app.Activity;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import org.robolectric.shadows.ShadowTrace;
import tbapp.NoSuperActivity;
import tbapp.PlainActivity;
import tbapp.SuperActivity;
import tbapp.Work;

/**
 * The app instrumented with --mode systrace on Android's own
 * android.os.Trace (Robolectric's ShadowTrace records the sections, and
 * fails on an endSection without a begin): after each step no section is
 * left open, the exception paths included. Writes "steps sections open"
 * lines to the file tbcheck.sections names.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35)
public class SystraceCheckTest {
    private final StringBuilder report = new StringBuilder();
    private int steps;

    private void check(String step) {
        steps++;
        int open = ShadowTrace.getCurrentSections().size();
        report.append(step).append(' ').append(ShadowTrace.getPreviousSections().size()).append(' ').append(open).append('\n');
        assertEquals(step + ": sections left open " + ShadowTrace.getCurrentSections(), 0, open);
    }

    @Test
    public void systraceMode() throws IOException {
        ShadowTrace.reset();
        ShadowTrace.setEnabled(true);
        ShadowTrace.doNotUseSetCrashOnIncorrectUsage(true);
        for (Class<? extends Activity> c : java.util.Arrays.asList(NoSuperActivity.class, SuperActivity.class, PlainActivity.class)) {
            ActivityController<? extends Activity> controller = Robolectric.buildActivity(c).setup();
            check("create " + c.getSimpleName());
            controller.windowFocusChanged(true);
            controller.windowFocusChanged(false);
            check("focus " + c.getSimpleName());
        }
        StringBuilder out = new StringBuilder();
        Work.postSlowMessage(out);
        ShadowLooper.idleMainLooper();
        check("slow message");
        out.append(Work.throughFrames("12 ")).append(Work.throughFrames("x"));
        check("exception through frames");
        out.append(Work.picky(3)).append(Work.picky(-1));
        check("throwing constructor");
        assertTrue(ShadowTrace.getPreviousSections().size() > steps);
        String path = System.getProperty("tbcheck.sections");
        if (path != null) {
            try (Writer w = new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8)) {
                w.write(report.toString());
            }
        }
    }
}
