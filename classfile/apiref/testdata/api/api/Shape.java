package api;

// An interface beyond the API's own classes (Serializable), declaring a
// method Base declares too.
@FunctionalInterface
public interface Shape extends java.io.Serializable {
    double area();

    default String label() { return "shape"; }
}
