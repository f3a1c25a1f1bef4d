package android.content;

/** Compile-time stand-in for Android's Context: the runtime jar never carries it. */
public abstract class Context {
}
