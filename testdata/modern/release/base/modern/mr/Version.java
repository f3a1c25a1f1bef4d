package modern.mr;

/** The root version of a multi-release class: Java 17. */
public final class Version {
    public static String describe(Object o) {
        if (o instanceof String s) {
            return "17: string " + s.length();
        }
        return "17: " + String.valueOf(o);
    }

    public static void main(String[] args) {
        System.out.println(describe("abc") + " / " + describe(4));
    }
}
