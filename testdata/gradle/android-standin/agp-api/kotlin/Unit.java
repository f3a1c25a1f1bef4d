package kotlin;

/** Kotlin stdlib's Unit (stand-in). */
public final class Unit {
    public static final Unit INSTANCE = new Unit();

    private Unit() {
    }
}
