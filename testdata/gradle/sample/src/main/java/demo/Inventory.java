package demo;

import java.util.ArrayList;
import java.util.List;

/** Collects parsed entries; rejects the lines the parser throws on. */
public class Inventory {
    private final List<Parser.Entry> entries = new ArrayList<Parser.Entry>();
    private int rejected;

    synchronized void addLine(Parser parser, String line) {
        try {
            add(parser.parse(line));
        } catch (IllegalArgumentException e) {
            rejected++;
            note(e);
        }
    }

    private void add(Parser.Entry entry) {
        entries.add(entry);
    }

    private void note(Exception e) {
        if (e.getMessage() == null) {
            throw new IllegalStateException("exception without message", e);
        }
    }

    synchronized int count() {
        return entries.size();
    }

    synchronized int total() {
        int sum = 0;
        for (Parser.Entry e : entries) {
            sum += e.quantity;
        }
        return sum;
    }

    /** A getter: Matrix's rules leave it untraced. */
    public int getRejected() {
        return rejected;
    }
}
