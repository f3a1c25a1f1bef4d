package demo;

/** Reads inventory lines, some of them malformed, on two threads and prints a summary. */
public class App {
    public static void main(String[] args) throws InterruptedException {
        Inventory inventory = new Inventory();
        Parser parser = new Parser();
        String[] lines = {"apple=3", "pear=x", "plum=-1", "fig=12", "broken"};
        for (String line : lines) {
            inventory.addLine(parser, line);
        }
        Thread worker = new Thread(new Worker(inventory, parser, new String[] {"kiwi=4", "lime=?", "date=1"}));
        worker.start();
        worker.join();
        System.out.println(summary(inventory));
        System.out.println(Blocked.describe(inventory));
    }

    static String summary(Inventory inventory) {
        return "items=" + inventory.count() + " total=" + inventory.total() + " rejected=" + inventory.getRejected();
    }
}
