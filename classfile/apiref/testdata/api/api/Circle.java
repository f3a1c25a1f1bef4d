package api;

// Declares nothing it is asked about: everything is inherited.
public class Circle extends Base implements Shape, Comparable<Circle> {
    public int compareTo(Circle other) { return 0; }
}
