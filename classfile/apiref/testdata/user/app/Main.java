package app;

import api.Base;
import api.Circle;
import api.Marker;
import api.Retired;
import api.Shape;

// Names the API's classes, a field and methods, arrays of them, and an
// annotation.
@Marker
public class Main {
    public static void main(String[] args) {
        Circle c = new Circle();
        c.run();
        c.count = 1;
        Shape s = c;
        s.area();
        int[][] grid = new int[3][];
        Base[][] bases = new Base[2][];
        Retired.call();
        System.out.println(grid.length + bases.length);
    }
}
