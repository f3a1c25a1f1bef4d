package tbcheck;

import com.tencent.matrix.Matrix;
import com.tencent.matrix.plugin.Plugin;
import com.tencent.matrix.plugin.PluginListener;
import com.tencent.matrix.report.Issue;
import com.tencent.matrix.trace.TracePlugin;
import com.tencent.matrix.trace.config.TraceConfig;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RobolectricTestRunner;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLooper;
import tbapp.PlainActivity;
import tbapp.Work;

/**
 * Matrix's whole TracePlugin (its EvilMethodTracer among the tracers)
 * started under Robolectric, the 800 ms message run, and what Matrix
 * reported written to the files tbcheck.plugin (the issues, or what stopped
 * the plugin) and tbcheck.issue (each Trace_EvilMethod issue's JSON, which
 * the check decodes).
 */
@RunWith(RobolectricTestRunner.class)
@Config(sdk = 35, shadows = DeviceClock.class)
public class TracePluginCheckTest {
    /**
     * Runs the main looper's messages the way Looper.loop() does on a
     * device: between the ">>>>> Dispatching" and "<<<<< Finished" lines it
     * prints to the Printer set with setMessageLogging, which is how
     * Matrix's LooperMonitor sees every message start and end (and its
     * EvilMethodTracer a slow one). Robolectric's paused looper runs them
     * without printing. Returns whether Matrix had set a printer.
     */
    static boolean dispatchLikeLooperLoop() throws Exception {
        java.lang.reflect.Field f = android.os.Looper.class.getDeclaredField("mLogging");
        f.setAccessible(true);
        android.util.Printer printer = (android.util.Printer) f.get(android.os.Looper.getMainLooper());
        if (printer != null) {
            printer.println(">>>>> Dispatching to Handler (android.os.Handler) {tbcheck} null: 0");
        }
        ShadowLooper.idleMainLooper();
        if (printer != null) {
            printer.println("<<<<< Finished to Handler (android.os.Handler) {tbcheck} null");
        }
        return printer != null;
    }

    @Test
    public void tracePlugin() throws Exception {
        StringBuilder report = new StringBuilder();
        // Matrix reports from a thread of its own.
        List<Issue> issues = new java.util.concurrent.CopyOnWriteArrayList<>();
        try {
            AndroidCheckTest.giveMatrixItsActivityThread();
            TracePlugin plugin = new TracePlugin(new TraceConfig.Builder()
                    .enableEvilMethodTrace(true).enableAnrTrace(false).enableFPS(false).enableStartup(true)
                    .isDebug(true).isDevEnv(false).build());
            Matrix.init(new Matrix.Builder(RuntimeEnvironment.getApplication()).plugin(plugin).patchListener(new PluginListener() {
                @Override
                public void onInit(Plugin p) {
                    report.append("plugin init ").append(p.getTag()).append('\n');
                }

                @Override
                public void onStart(Plugin p) {
                    report.append("plugin start ").append(p.getTag()).append('\n');
                }

                @Override
                public void onStop(Plugin p) {
                }

                @Override
                public void onDestroy(Plugin p) {
                }

                @Override
                public void onReportIssue(Issue issue) {
                    issues.add(issue);
                }
            }).build());
            // EvilMethodTracer posts its analysis to Matrix's default handler,
            // which exists only once something asked for its thread (in an app,
            // another part of Matrix does first); nothing here does.
            com.tencent.matrix.util.MatrixHandlerThread.getDefaultHandlerThread();
            plugin.start();
            report.append("evil method tracer alive: ").append(plugin.getEvilMethodTracer() != null && plugin.getEvilMethodTracer().isAlive()).append('\n');
            report.append("UI thread monitor alive: ").append(plugin.getUIThreadMonitor() != null && plugin.getUIThreadMonitor().isAlive()).append('\n');
            Robolectric.buildActivity(PlainActivity.class).setup();
            StringBuilder out = new StringBuilder();
            Work.postSlowMessage(out);
            report.append("looper printer installed by Matrix: ").append(dispatchLikeLooperLoop()).append('\n');
            // Matrix analyses on a thread of its own: wait for its report,
            // up to 30 s on a busy machine.
            for (long end = System.nanoTime() + 30_000_000_000L; issues.isEmpty() && System.nanoTime() < end; ) {
                Thread.sleep(50);
            }
            ShadowLooper.idleMainLooper();
            report.append("app said ").append(out).append('\n');
        } catch (Throwable e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            report.append("stopped: ").append(trace).append('\n');
        }
        report.append("issues ").append(issues.size()).append('\n');
        for (Issue issue : issues) {
            report.append("issue ").append(issue.getTag()).append(' ').append(issue.getContent()).append('\n');
        }
        StringBuilder json = new StringBuilder();
        for (Issue issue : issues) {
            if ("Trace_EvilMethod".equals(issue.getTag())) {
                json.append(issue.getContent()).append('\n');
            }
        }
        String issuePath = System.getProperty("tbcheck.issue");
        if (issuePath != null) {
            try (Writer w = new OutputStreamWriter(new FileOutputStream(issuePath), StandardCharsets.UTF_8)) {
                w.write(json.toString());
            }
        }
        String path = System.getProperty("tbcheck.plugin");
        if (path != null) {
            try (Writer w = new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8)) {
                w.write(report.toString());
            }
        }
    }
}
