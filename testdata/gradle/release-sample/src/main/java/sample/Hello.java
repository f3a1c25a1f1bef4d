package sample;

/** The release sample's app: a few calls for the traced jar to record. */
public class Hello {
    public static void main(String[] args) {
        System.out.println(greet(args.length > 0 ? args[0] : "tracebeat"));
        System.out.println("sum " + sum(100));
    }

    static String greet(String who) {
        return "hello, " + capitalize(who);
    }

    static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    static long sum(int n) {
        long total = 0;
        for (int i = 1; i <= n; i++) {
            total += square(i);
        }
        return total;
    }

    static long square(int i) {
        return (long) i * i;
    }
}
