package android.os;

/** Compile-time stand-in for Android's Bundle: the runtime jar never carries it. */
public final class Bundle {
}
