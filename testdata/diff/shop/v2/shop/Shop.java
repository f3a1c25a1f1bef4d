// The second build of testdata/diff/shop/v1: Pricing.discount waits 6 ms
// instead of 2. (v1's comment says the rest.)
//
// A shop that prices orders, for tracebeat diff's tests of its verdicts on
// a loaded machine (cmd/tracebeat/diffload_test.go): main prices ORDERS
// orders; Checkout.total prices one: its own few additions, then for each
// of LINES lines Pricing.discount (a wait of 2 ms, as a call to a service
// would), Tax.rate (busy 300 µs), Cart.line (a few small calls), and once
// Inventory.reserve (a wait of 1 ms) and Receipt.print (busy 100 µs). The
// second build, testdata/diff/shop/v2, differs in Pricing.discount alone:
// a wait of 6 ms. It prints the orders' total, the same in both builds.
package shop;

public class Shop {
    static final int ORDERS = 20;
    static final int LINES = 3;

    public static void main(String[] args) throws Exception {
        long sum = 0;
        for (int i = 0; i < ORDERS; i++) {
            sum += Checkout.total(i);
        }
        System.out.println("shop: " + ORDERS + " orders, total " + sum);
    }

    static void busy(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    static final class Checkout {
        static long total(int order) throws InterruptedException {
            long t = order * 7L;
            for (int line = 0; line < LINES; line++) {
                t += Pricing.discount(order, line) + Tax.rate(line) + Cart.line(order, line);
            }
            Inventory.reserve(order);
            Receipt.print(t);
            return t;
        }
    }

    static final class Pricing {
        static long discount(int order, int line) throws InterruptedException {
            Thread.sleep(6);
            return (order + line) % 5;
        }
    }

    static final class Tax {
        static long rate(int line) {
            busy(300_000);
            return line * 3L;
        }
    }

    static final class Cart {
        static long line(int order, int line) {
            return price(order) + quantity(line);
        }

        static long price(int order) {
            return 100 + order;
        }

        static long quantity(int line) {
            return 1 + line;
        }
    }

    static final class Inventory {
        static void reserve(int order) throws InterruptedException {
            Thread.sleep(1);
        }
    }

    static final class Receipt {
        static void print(long total) {
            busy(100_000);
        }
    }
}
