package tbcheck;

import android.app.Activity;
import com.tencent.matrix.trace.core.AppMethodBeat;
import com.tencent.matrix.trace.listeners.IAppMethodBeatListener;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import tbapp.NoSuperActivity;
import tbapp.PlainActivity;
import tbapp.SuperActivity;

/**
 * Focus: the app instrumented with --beat-class tbcheck.FocusSpy, each
 * Activity's window focus changed true, false, true through Robolectric;
 * FocusSpy counts the AppMethodBeat.at calls each change makes and passes
 * them on to Matrix, whose own listener (what its startup tracer uses)
 * hears each Activity's first focus. Writes "activity hasFocus at-calls
 * matrix-listener-calls" lines to the file tbcheck.focus names.
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, shadows = DeviceClock.class)
public class FocusCheckTest {
    @Test
    public void focus() throws Exception {
        AndroidCheckTest.giveMatrixItsActivityThread();
        Map<String, Integer> heard = new LinkedHashMap<>();
        AppMethodBeat.getInstance().addListener(new IAppMethodBeatListener() {
            @Override
            public void onActivityFocused(String activity) {
                heard.merge(activity, 1, Integer::sum);
            }
        });
        StringBuilder report = new StringBuilder();
        for (Class<? extends Activity> c : Arrays.asList(NoSuperActivity.class, SuperActivity.class, PlainActivity.class)) {
            ActivityController<? extends Activity> controller = Robolectric.buildActivity(c).setup();
            String name = c.getName();
            for (boolean hasFocus : new boolean[] {true, false, true}) {
                int before = FocusSpy.count(name, hasFocus);
                int heardBefore = heard.getOrDefault(name, 0);
                controller.windowFocusChanged(hasFocus);
                report.append(name).append(' ').append(hasFocus).append(' ')
                        .append(FocusSpy.count(name, hasFocus) - before).append(' ')
                        .append(heard.getOrDefault(name, 0) - heardBefore).append('\n');
            }
        }
        String path = System.getProperty("tbcheck.focus");
        if (path != null) {
            try (Writer w = new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8)) {
                w.write(report.toString());
            }
        }
    }
}
