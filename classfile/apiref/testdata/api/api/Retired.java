package api;

// A deprecated class: its members are deprecated with it.
@Deprecated
public class Retired {
    public static void call() {}
}
