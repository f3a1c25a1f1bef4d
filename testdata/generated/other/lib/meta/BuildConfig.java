package lib.meta;

/** A BuildConfig with no Android R beside it: traced. */
public class BuildConfig {
    public static int level(int x) {
        return x > 3 ? Math.max(x - 1, 0) : x + 1;
    }
}
