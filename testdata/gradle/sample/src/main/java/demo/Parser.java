package demo;

/** Parses "name=quantity"; bad input throws, from this class and from the JDK. */
public class Parser {
    static final class Entry {
        final String name;
        final int quantity;

        Entry(String name, int quantity) {
            this.name = name;
            this.quantity = quantity;
        }
    }

    Entry parse(String line) {
        int eq = line.indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException("no '=' in " + line);
        }
        return new Entry(line.substring(0, eq), parseQuantity(line.substring(eq + 1)));
    }

    /** Integer.parseInt throws NumberFormatException through this method; checkRange throws from below it. */
    int parseQuantity(String text) {
        int n = Integer.parseInt(text.trim());
        checkRange(n);
        return n;
    }

    private void checkRange(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative quantity " + Integer.toString(n));
        }
    }
}
