package ins;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Lambdas (capturing and not, nested, throwing) and method references of every kind, run through streams. */
public final class Functional {
    private final String prefix;

    private Functional(String prefix) {
        this.prefix = prefix;
    }

    private String tag(int i) {
        return prefix + i;
    }

    static int square(int x) {
        return x * x;
    }

    public static void main(String[] args) {
        Functional f = new Functional("#");
        int offset = 3;
        Function<Integer, Integer> capture = x -> x + offset;
        IntBinaryOperator add = Integer::sum;
        Function<Integer, String> bound = f::tag;
        BiFunction<String, Integer, Character> unbound = String::charAt;
        Supplier<List<String>> ctor = ArrayList::new;
        Function<Integer, int[]> arr = int[]::new;
        Supplier<Supplier<String>> nested = () -> () -> "nested" + offset;
        Function<Integer, Integer> thrower = x -> {
            if (x > 2) {
                throw new IllegalArgumentException("lambda threw " + x);
            }
            return x;
        };
        List<String> out = ctor.get();
        out.add(IntStream.rangeClosed(1, 5).map(Functional::square).mapToObj(Integer::toString)
                .collect(Collectors.joining("+")));
        out.add(String.valueOf(capture.apply(4) + add.applyAsInt(1, 2)));
        out.add(bound.apply(9) + unbound.apply("xyz", 2) + arr.apply(4).length + nested.get().get());
        try {
            List.of(1, 2, 3).forEach(thrower::apply);
        } catch (IllegalArgumentException e) {
            out.add(e.getMessage());
        }
        Runnable r = () -> out.add("runnable");
        r.run();
        System.out.println("functional: " + String.join(" ", out));
    }
}
