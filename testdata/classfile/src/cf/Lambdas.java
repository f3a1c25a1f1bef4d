package cf;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * Lambdas and method references (invokedynamic with LambdaMetafactory; the
 * BootstrapMethods arguments are MethodHandle and MethodType constants), and
 * a serializable lambda, which makes javac write $deserializeLambda$ with a
 * switch on strings.
 */
public class Lambdas {
    private final int base;

    public Lambdas(int base) {
        this.base = base;
    }

    public interface SerFn extends Function<Integer, Integer>, Serializable {
    }

    public static List<String> run(List<Integer> in) {
        Lambdas l = new Lambdas(10);
        int local = in.size();
        long wide = 1L << 40;
        double d = 2.5;
        Function<Integer, Integer> capture = x -> x + local + l.base;
        ToLongFunction<Integer> captureWide = x -> x + wide + (long) d;
        Supplier<List<String>> ctor = ArrayList::new;
        IntFunction<String[]> arrayCtor = String[]::new;
        BiFunction<String, Integer, Character> unbound = String::charAt;
        Function<Integer, String> bound = l::label;
        Function<Object, String> stat = String::valueOf;
        SerFn ser = (SerFn & Serializable) x -> x * 3;
        Runnable nested = () -> {
            Runnable inner = () -> System.identityHashCode(l);
            inner.run();
        };
        nested.run();
        List<String> out = ctor.get();
        for (Integer i : in) {
            out.add(bound.apply(capture.apply(i)) + captureWide.applyAsLong(i) + stat.apply(ser.apply(i))
                    + unbound.apply("abc", 1));
        }
        out.add(String.valueOf(arrayCtor.apply(3).length));
        out.add(in.stream().map(i -> i * 2).filter(i -> i > 2).map(Object::toString).collect(Collectors.joining(",")));
        return out;
    }

    private String label(int x) {
        return "#" + (x + base);
    }
}
