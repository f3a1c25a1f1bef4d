package demo;

/** Named by tracebeat-blacklist.txt, so it must stay untraced. */
public class Blocked {
    static String describe(Inventory inventory) {
        return "blocked sees " + String.valueOf(inventory.count()) + " items";
    }
}
