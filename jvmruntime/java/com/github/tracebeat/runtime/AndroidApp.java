package com.github.tracebeat.runtime;

import java.io.File;

/**
 * Where an Android app's recording goes when nothing said
 * ({@code tracebeat.trace} unset, as an app started from the launcher has
 * it): {@code FILES/tracebeat/PROCESS.trace} in the app's own files folder,
 * PROCESS the process's name with ':' as '-'. The recorder starts with the
 * app's first traced call, often before the app's Application exists; the
 * monitor asks here until it does ({@code ActivityThread.currentApplication()},
 * set once the Application is made, before its onCreate), then reports,
 * dumps asked for (a broadcast, DumpReceiver, or
 * {@code touch FILES/tracebeat/PROCESS.trace.dump}) and the recording at
 * exit go there. The app found, its Activities are watched for warm
 * starts ({@link Activities}) whether or not the trace was set.
 *
 * <p>Reflection only: the class loads on a plain JVM too, and ties the jar
 * to no framework version.
 */
final class AndroidApp {
    private AndroidApp() {
    }

    /**
     * Looks for the app; once there, registers what watches its Activities
     * (warm starts) and, when nothing set {@code tracebeat.trace}, sets the
     * recording's path and says it on stderr (logcat's System.err). False:
     * ask again later (the app is not made yet); true: done, found or not
     * (a line said why not).
     */
    static boolean look() {
        Object app;
        try {
            app = Class.forName("android.app.ActivityThread").getMethod("currentApplication").invoke(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            if (Settings.trace() == null) {
                Settings.warn("no app found (" + e + "): the recording has nowhere to go; set tracebeat.trace");
            }
            return true;
        }
        if (app == null) {
            return false; // not made yet
        }
        Activities.register(app);
        if (Settings.trace() == null) {
            findTrace(app);
        }
        return true;
    }

    /** Sets the recording's path in app's files folder and says it, or says why not. */
    private static void findTrace(Object app) {
        try {
            File files = (File) app.getClass().getMethod("getFilesDir").invoke(app);
            File dir = new File(files, "tracebeat");
            if (!dir.isDirectory() && !dir.mkdirs()) {
                Settings.warn("cannot make " + dir + ": the recording has nowhere to go; set tracebeat.trace");
                return;
            }
            String name = processName(app).replace(':', '-').replace('/', '_');
            String trace = new File(dir, name + ".trace").getPath();
            Settings.traceFound(trace);
            String ask = DumpReceiver.register(app) ? "adb shell am broadcast -a " + DumpReceiver.ACTION + " -p PACKAGE, or touch " : "touch ";
            Settings.warn("recording; reports and dumps go to " + dir + " (a dump: " + ask + trace + ".dump)");
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            Settings.warn("no app found (" + e + "): the recording has nowhere to go; set tracebeat.trace");
        }
    }

    /** The process's name (Application.getProcessName, API 28), else the package's. */
    private static String processName(Object app) throws ReflectiveOperationException {
        try {
            Object n = Class.forName("android.app.Application").getMethod("getProcessName").invoke(null);
            if (n instanceof String && !((String) n).isEmpty()) {
                return (String) n;
            }
        } catch (NoSuchMethodException e) {
            // before API 28
        }
        return (String) app.getClass().getMethod("getPackageName").invoke(app);
    }
}
