package cf;

import java.util.List;

/** instanceof patterns (Java 16+): binding variables, flow scoping, && chains, negation. */
public final class Patterns {
    private Patterns() {
    }

    public static int measure(Object o) {
        if (o instanceof String s && !s.isEmpty()) {
            return s.length();
        }
        if (!(o instanceof Number n)) {
            return -1;
        }
        if (n instanceof Long l) {
            return (int) (l % 1000);
        }
        if (n instanceof Double d && d > 0.5 || n instanceof Float) {
            return 2;
        }
        return n.intValue();
    }

    public static int count(List<?> items) {
        int c = 0;
        for (Object o : items) {
            while (o instanceof List<?> inner && !inner.isEmpty()) {
                o = inner.get(0);
                c++;
            }
            c += o instanceof Integer i ? i : 0;
        }
        return c;
    }
}
