package demo;

/** Adds lines on its own thread; its finally block runs on the exceptional path too. */
public class Worker implements Runnable {
    private final Inventory inventory;
    private final Parser parser;
    private final String[] lines;

    Worker(Inventory inventory, Parser parser, String[] lines) {
        this.inventory = inventory;
        this.parser = parser;
        this.lines = lines;
    }

    @Override
    public void run() {
        for (String line : lines) {
            try {
                strict(line);
            } catch (NumberFormatException e) {
                inventory.addLine(parser, "rejected=0");
            }
        }
    }

    private void strict(String line) {
        try {
            inventory.addLine(parser, line);
            parser.parse(line);
        } finally {
            Thread.yield();
        }
    }
}
