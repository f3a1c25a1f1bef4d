package com.github.tracebeat.runtime;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import java.lang.reflect.Method;

/**
 * A dump asked for by a broadcast while an Android app runs:
 * {@code adb shell am broadcast -a com.github.tracebeat.DUMP -p PACKAGE}.
 * The receiver is registered at run time (nothing to declare in the
 * manifest) with the permission {@code android.permission.DUMP}, which
 * the shell holds and apps do not: another app cannot make this one write.
 * It only asks: the monitor writes the dump on its own thread, not on the
 * main thread the broadcast arrives on.
 *
 * <p>Loaded only on Android (AndroidApp): a plain JVM has no
 * BroadcastReceiver to extend.
 */
final class DumpReceiver extends BroadcastReceiver {
    static final String ACTION = "com.github.tracebeat.DUMP";
    static final String PERMISSION = "android.permission.DUMP";
    /** Context.RECEIVER_EXPORTED (API 33): a receiver of others' broadcasts says so from Android 14 on. */
    private static final int RECEIVER_EXPORTED = 2;

    @Override
    public void onReceive(Context context, Intent intent) {
        if (intent != null && ACTION.equals(intent.getAction())) {
            Triggers.request();
        }
    }

    /** Registers a receiver with the app (reflection: the Context and IntentFilter the device has); false with a line when it cannot. */
    static boolean register(Object app) {
        try {
            Class<?> filterClass = Class.forName("android.content.IntentFilter");
            Object filter = filterClass.getConstructor(String.class).newInstance(ACTION);
            Class<?> handler = Class.forName("android.os.Handler");
            int sdk = Class.forName("android.os.Build$VERSION").getField("SDK_INT").getInt(null);
            DumpReceiver r = new DumpReceiver();
            if (sdk >= 33) {
                Method m = app.getClass().getMethod("registerReceiver", BroadcastReceiver.class, filterClass, String.class, handler, int.class);
                m.invoke(app, r, filter, PERMISSION, null, RECEIVER_EXPORTED);
            } else {
                Method m = app.getClass().getMethod("registerReceiver", BroadcastReceiver.class, filterClass, String.class, handler);
                m.invoke(app, r, filter, PERMISSION, null);
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            Settings.warn("no dump by broadcast (" + e + "); a file still asks for one");
            return false;
        }
    }
}
