package modern.mr;

/** The Java 25 version of the class (META-INF/versions/25): a pattern switch. */
public final class Version {
    public static String describe(Object o) {
        return switch (o) {
            case String s -> "25: string " + s.length();
            case Integer i when i > 3 -> "25: big " + i;
            case null, default -> "25: " + o;
        };
    }

    public static void main(String[] args) {
        System.out.println(describe("abc") + " / " + describe(4));
    }
}
