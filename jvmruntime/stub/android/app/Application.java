package android.app;

import android.content.Context;
import android.os.Bundle;

/** Compile-time stand-in for Android's Application: the runtime jar never carries it. */
public class Application extends Context {
    /** Android's callbacks of every Activity's lifecycle (API 14). */
    public interface ActivityLifecycleCallbacks {
        void onActivityCreated(Activity activity, Bundle savedInstanceState);

        void onActivityStarted(Activity activity);

        void onActivityResumed(Activity activity);

        void onActivityPaused(Activity activity);

        void onActivityStopped(Activity activity);

        void onActivitySaveInstanceState(Activity activity, Bundle outState);

        void onActivityDestroyed(Activity activity);
    }

    public void registerActivityLifecycleCallbacks(ActivityLifecycleCallbacks callbacks) {
    }
}
