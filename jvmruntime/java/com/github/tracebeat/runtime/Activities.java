package com.github.tracebeat.runtime;

import android.app.Activity;
import android.app.Application;
import android.os.Bundle;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which of the app's Activities are alive, for Matrix's warm start: an
 * Activity created while no other Activity of the app is alive, once the
 * cold start is over (the app was left, its process kept), up to that
 * Activity's first focus ({@link Startup}).
 *
 * <p>The Application's lifecycle callbacks tell of each creation and
 * destruction. They are registered as soon as the monitor finds the app
 * (before {@code Application.onCreate} as a rule) or, at the latest, at the
 * first focus; an Activity that gains focus counts as alive too, so that
 * one created before the callbacks were registered is not missed and a
 * later Activity is not taken for a warm start. Weak: an Activity the app
 * leaks is not kept alive here.
 *
 * <p>This class names framework types: it is loaded only on Android.
 */
final class Activities implements Application.ActivityLifecycleCallbacks {
    private static final Object LOCK = new Object();
    private static boolean registered;
    private static final Map<Object, Boolean> ALIVE = new WeakHashMap<Object, Boolean>();
    /** The Activity whose warm start runs, and when it was created (Clock.now); null: none. */
    private static Object warming;
    private static long warmingSince;

    private Activities() {
    }

    /** Registers the callbacks with app once; a line on stderr when it cannot. */
    static void register(Object app) {
        synchronized (LOCK) {
            if (registered || app == null) {
                return;
            }
            registered = true;
        }
        try {
            ((Application) app).registerActivityLifecycleCallbacks(new Activities());
        } catch (RuntimeException | LinkageError e) {
            Settings.warn("warm starts are not seen (" + e + ")");
        }
    }

    /**
     * An Activity gained focus: it is alive. Returns when it was created if
     * this is the end of its warm start (then over), else -1.
     */
    static long focused(Object activity) {
        if (activity instanceof Activity) {
            register(((Activity) activity).getApplication());
        }
        synchronized (LOCK) {
            ALIVE.put(activity, Boolean.TRUE);
            if (warming != activity) {
                return -1;
            }
            warming = null;
            return warmingSince;
        }
    }

    @Override
    public void onActivityCreated(Activity activity, Bundle savedInstanceState) {
        synchronized (LOCK) {
            if (ALIVE.isEmpty() && Startup.coldStartOver()) {
                warming = activity;
                warmingSince = Clock.now();
            }
            ALIVE.put(activity, Boolean.TRUE);
        }
    }

    @Override
    public void onActivityDestroyed(Activity activity) {
        synchronized (LOCK) {
            ALIVE.remove(activity);
            if (warming == activity) {
                warming = null; // gone before its focus: no warm start to tell
            }
        }
    }

    @Override
    public void onActivityStarted(Activity activity) {
    }

    @Override
    public void onActivityResumed(Activity activity) {
    }

    @Override
    public void onActivityPaused(Activity activity) {
    }

    @Override
    public void onActivityStopped(Activity activity) {
    }

    @Override
    public void onActivitySaveInstanceState(Activity activity, Bundle outState) {
    }
}
