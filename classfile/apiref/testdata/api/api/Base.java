package api;

// The superclass: a field, methods, and one of them deprecated.
public class Base {
    public int count;

    public void run() {}

    public double area() { return 0; }

    @Deprecated
    public void old() {}
}
