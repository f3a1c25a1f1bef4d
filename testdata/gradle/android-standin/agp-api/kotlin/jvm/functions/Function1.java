package kotlin.jvm.functions;

/** Kotlin stdlib's one-argument function type as Java sees it (stand-in). */
public interface Function1<P1, R> extends kotlin.Function<R> {
    R invoke(P1 p1);
}
