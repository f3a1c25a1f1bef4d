package cf;

/** Sealed hierarchies: PermittedSubclasses with final, non-sealed, record and nested sealed members. */
public final class Shapes {
    private Shapes() {
    }

    public sealed interface Shape permits Circle, Square, Polygon, Composite {
        double area();
    }

    public static final class Circle implements Shape {
        private final double r;

        public Circle(double r) {
            this.r = r;
        }

        @Override
        public double area() {
            return Math.PI * r * r;
        }
    }

    public record Square(double side) implements Shape {
        @Override
        public double area() {
            return side * side;
        }
    }

    public static non-sealed class Polygon implements Shape {
        protected final int sides;

        public Polygon(int sides) {
            this.sides = sides;
        }

        @Override
        public double area() {
            return sides;
        }
    }

    public static class Hexagon extends Polygon {
        public Hexagon() {
            super(6);
        }
    }

    public abstract static sealed class Composite implements Shape permits Union, Intersection {
        protected final Shape a;
        protected final Shape b;

        protected Composite(Shape a, Shape b) {
            this.a = a;
            this.b = b;
        }
    }

    public static final class Union extends Composite {
        public Union(Shape a, Shape b) {
            super(a, b);
        }

        @Override
        public double area() {
            return a.area() + b.area();
        }
    }

    public static final class Intersection extends Composite {
        public Intersection(Shape a, Shape b) {
            super(a, b);
        }

        @Override
        public double area() {
            return Math.min(a.area(), b.area());
        }
    }

    public static String kind(Shape s) {
        if (s instanceof Circle) {
            return "circle";
        } else if (s instanceof Square sq && sq.side() > 1) {
            return "big square";
        } else if (s instanceof Polygon p) {
            return "polygon " + p.sides;
        }
        return "other";
    }
}
