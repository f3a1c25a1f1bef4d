package cf;

import java.util.EnumMap;
import java.util.Map;

/** Enums with constant bodies, abstract methods, constructors, and switches on enums (synthetic $SwitchMap). */
public final class Enums {
    private Enums() {
    }

    public enum Op {
        ADD("+") {
            @Override
            public long apply(long a, long b) {
                return a + b;
            }
        },
        SUB("-") {
            @Override
            public long apply(long a, long b) {
                return a - b;
            }
        },
        MUL("*") {
            @Override
            public long apply(long a, long b) {
                return a * b;
            }
        },
        DIV("/") {
            @Override
            public long apply(long a, long b) {
                if (b == 0) {
                    throw new ArithmeticException("div by zero");
                }
                return a / b;
            }
        };

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        public abstract long apply(long a, long b);
    }

    public enum Color { RED, GREEN, BLUE, ALPHA }

    public static int weight(Color c) {
        switch (c) {
            case RED:
                return 1;
            case GREEN:
                return 2;
            case BLUE:
                return 3;
            default:
                return 0;
        }
    }

    public static String arrow(Op op) {
        return switch (op) {
            case ADD, SUB -> "additive";
            case MUL -> "multiplicative";
            case DIV -> {
                String s = op.symbol();
                yield "division " + s;
            }
        };
    }

    public static Map<Color, Integer> weights() {
        Map<Color, Integer> m = new EnumMap<>(Color.class);
        for (Color c : Color.values()) {
            m.put(c, weight(c));
        }
        return m;
    }
}
