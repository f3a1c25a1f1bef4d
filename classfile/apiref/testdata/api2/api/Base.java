package api;

// A later jar's Base: the first jar's wins, as on a class path.
public class Base {
    public void extra() {}
}
