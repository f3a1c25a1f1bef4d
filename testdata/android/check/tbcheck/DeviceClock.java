package tbcheck;

import android.os.SystemClock;
import org.robolectric.annotation.Implementation;
import org.robolectric.annotation.Implements;
import org.robolectric.shadows.ShadowPausedSystemClock;

/**
 * SystemClock.sleep as a device has it, for Matrix's clock. Matrix reads
 * no clock per call: a thread of its own ("matrix_time_update_thread")
 * publishes SystemClock.uptimeMillis() every 5 ms, sleeping with
 * SystemClock.sleep(5). Robolectric's clock moves only when someone
 * sleeps, and any thread's sleep moves it: Matrix's thread would race it
 * ahead by 5 ms per turn of its loop, at the speed of the CPU (a 3,000 s
 * message was seen). Here only the main thread moves the clock, and every
 * sleep also takes its time in real time, so that Matrix's thread, which
 * really sleeps, sees the clock as it moves, as on a device.
 */
@Implements(SystemClock.class)
public class DeviceClock extends ShadowPausedSystemClock {
    @Implementation
    protected static void sleep(long millis) {
        if (android.os.Looper.getMainLooper().getThread() == Thread.currentThread()) {
            ShadowPausedSystemClock.sleep(millis);
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
