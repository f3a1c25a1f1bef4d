package tbcheck;

import org.robolectric.annotation.Config;

/**
 * RuntimeCheckTest on Android 6.0's framework (API 23), the oldest
 * Robolectric runs: the boot clock, the tids, the lifecycle callbacks and
 * the receiver as a version before 8.0 has them (Process.getStartElapsedRealtime
 * is not there yet: API 24; the receiver is registered without the flags
 * of API 33).
 */
@Config(sdk = 23, shadows = DeviceClock.class)
public class RuntimeCheck23Test extends RuntimeCheckTest {
}
