package kotlin;

/** Kotlin stdlib marker interface of function types (stand-in). */
public interface Function<R> {
}
