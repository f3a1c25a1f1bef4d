package cf;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Generic Signature attributes (class, field, method, local variables), wildcards, bounds, bridge methods, varargs. */
public class Generics<K extends Comparable<? super K>, V> implements Comparator<K> {
    private final Map<K, List<? extends V>> map;
    protected List<? super Integer>[] arrays;

    public Generics(Map<K, List<? extends V>> map) {
        this.map = map;
    }

    @Override
    public int compare(K a, K b) {
        return a.compareTo(b);
    }

    public <R, E extends Exception> List<R> mapAll(Function<? super V, ? extends R> f, Class<E> errorType) throws E {
        List<R> out = new ArrayList<>();
        for (List<? extends V> vs : map.values()) {
            for (V v : vs) {
                out.add(f.apply(v));
            }
        }
        return out;
    }

    @SafeVarargs
    public static <T extends Number & Comparable<T>> T maxOf(T first, T... rest) {
        T best = first;
        for (T t : rest) {
            if (t.compareTo(best) > 0) {
                best = t;
            }
        }
        return best;
    }

    public static double sum(Collection<? extends Number> xs) {
        double s = 0;
        for (Number n : xs) {
            s += n.doubleValue();
        }
        return s;
    }

    /** Covariant override of a generic method: javac adds a bridge method. */
    public static class Box<T> {
        public T get() {
            return null;
        }
    }

    public static class StringBox extends Box<String> {
        @Override
        public String get() {
            return "s";
        }
    }

    public interface Source<T> {
        T next();
    }

    public static final class Counter implements Source<Integer> {
        private int n;

        @Override
        public Integer next() {
            return n++;
        }
    }
}
