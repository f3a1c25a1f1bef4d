package cf;

import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Annotations: runtime-visible and class-retention (invisible) ones on types,
 * fields, methods, parameters and record components, every element value
 * kind (primitives, strings, enums, classes, nested annotations, arrays),
 * repeatable annotations, and TYPE_USE annotations inside method bodies,
 * which javac stores as RuntimeVisibleTypeAnnotations of the Code
 * attribute with bytecode offsets: local variables, resource variables,
 * new, casts, instanceof, catch parameters, method references and type
 * arguments of generic calls.
 */
@Annotations.Info(name = "annotated", level = 3, tags = {"a", "b"}, kind = ElementType.TYPE, type = String[].class,
        nested = @Annotations.Tag("inner"), ratio = 0.5, big = 1L << 40, flag = true, letter = 'x', small = 7, tiny = 1,
        f = 1.5f)
@Annotations.Invisible
public class Annotations {
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Info {
        String name();

        int level() default 1;

        String[] tags() default {};

        ElementType kind() default ElementType.METHOD;

        Class<?> type() default Object.class;

        Tag nested() default @Tag("default");

        double ratio() default 0;

        long big() default 0;

        boolean flag() default false;

        char letter() default 'a';

        short small() default 0;

        byte tiny() default 0;

        float f() default 0;
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Repeatable(Tags.class)
    public @interface Tag {
        String value();
    }

    @Retention(RetentionPolicy.RUNTIME)
    public @interface Tags {
        Tag[] value();
    }

    /** CLASS retention: RuntimeInvisibleAnnotations. */
    public @interface Invisible {
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE_USE, ElementType.TYPE_PARAMETER})
    public @interface T {
        String value() default "";
    }

    /** TYPE_USE with CLASS retention: RuntimeInvisibleTypeAnnotations. */
    @Target(ElementType.TYPE_USE)
    public @interface TI {
    }

    @Tag("one")
    @Tag("two")
    @Invisible
    private @T("field") List<@T("elem") String> names = new ArrayList<>();

    public record Rec(@T("component") @Tag("rc") int value, @Invisible String label) {
    }

    public <@T("tp") X extends @T("bound") Comparable<X>> @T("ret") X max(@Tag("p0") X a, @Invisible @T("p1") X b)
            throws @T("throws") IllegalStateException {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Info(name = "body")
    public int body(Object o, Map<String, List<Integer>> m) throws Exception {
        @T("local") String s = (@T("cast") String) String.valueOf(o);
        @TI Object made = new @T("new") StringBuilder(s);
        @T("array") int @T("dim") [] arr = new @T("newarr") int[3];
        int n = 0;
        if (o instanceof @T("instanceof") CharSequence cs) {
            n += cs.length();
        }
        if (o instanceof @T("instanceof") Runnable) {
            n += 2;
        }
        try (@T("resource") AutoCloseable c = () -> { }) {
            n += arr.length + made.hashCode() % 2;
        } catch (@T("catch") IllegalStateException | @T("catch2") IllegalArgumentException e) {
            n--;
        }
        try {
            n += Integer.parseInt(s);
        } catch (@T("catch3") NumberFormatException e) {
            n++;
        }
        List<@T("typearg") Integer> list = m.getOrDefault(s, List.<@T("callarg") Integer>of());
        java.util.function.Function<String, Integer> ref = @T("mref") String::length;
        for (@T("loopvar") Integer i : list) {
            n += i;
        }
        names.add(s);
        return n + ref.apply(s);
    }
}
