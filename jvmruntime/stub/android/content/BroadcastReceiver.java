package android.content;

/** Compile-time stand-in for Android's BroadcastReceiver: the runtime jar never carries it. */
public abstract class BroadcastReceiver {
    public abstract void onReceive(Context context, Intent intent);
}
