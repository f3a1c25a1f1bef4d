package lib.x;

/** Outside every -allowpackage: not traced. */
public class Util {
    public static void work() {
        System.out.println("work");
    }
}
