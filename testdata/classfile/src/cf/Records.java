package cf;

import java.util.List;
import java.util.Objects;

/** Records: canonical/compact constructors, generic components, static members, nested records. */
public final class Records {
    private Records() {
    }

    public record Point(int x, int y) {
        public static final Point ORIGIN = new Point(0, 0);

        public Point {
            if (x < -1000 || y < -1000) {
                throw new IllegalArgumentException("out of range: " + x + "," + y);
            }
        }

        public Point(int both) {
            this(both, both);
        }

        public double length() {
            return Math.sqrt((double) x * x + (double) y * y);
        }
    }

    public record Pair<A, B>(A first, B second) implements Comparable<Pair<A, B>> {
        public Pair {
            Objects.requireNonNull(first, "first");
        }

        @Override
        public int compareTo(Pair<A, B> other) {
            return String.valueOf(first).compareTo(String.valueOf(other.first));
        }
    }

    public record Wide(long id, double weight, List<String> tags) {
        public Wide(long id) {
            this(id, id * 0.5, List.of());
        }
    }

    record Empty() {
    }

    public static String describe(Object o) {
        if (o instanceof Point p) {
            return "point " + p.x() + " " + p.y() + " len " + p.length();
        }
        if (o instanceof Pair<?, ?> pair) {
            return "pair " + pair.first() + "/" + pair.second();
        }
        return String.valueOf(o);
    }

    public static int sum(List<Point> points) {
        int s = 0;
        for (Point p : points) {
            s += p.x() + p.y();
        }
        return s + new Wide(3).tags().size() + (new Empty().equals(new Empty()) ? 1 : 0);
    }
}
