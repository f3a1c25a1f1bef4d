// Fixture for methodmap's rule tests: rules_javac_test.go compiles this file
// with javac, reads the opcodes of every method with javap and checks
// Classify against the reason it expects for each method.
package fixture;

public class Rules {
    int x;
    static int s = 5;            // <clinit>: iconst_5, putstatic, return -> getter-setter
    int[] arr;
    private Runnable r;

    Rules() {}                   // aload_0, invokespecial, return -> getter-setter (ctor may call super once)

    Rules(int x) { this.x = x; } // super() + field store -> getter-setter

    Rules(long v) {              // this() + a call -> traced
        this();
        calls();
    }

    Rules(double d) {            // this() + new Thread(): NEW is no getter op, and a call -> traced
        this();
        r = new Thread();
    }

    Rules(float f) {             // super() + super.notify(): two invokespecial, nothing else -> traced
        super();
        super.notify();
    }

    int getX() { return x; }                 // getter-setter
    void setX(int x) { this.x = x; }         // getter-setter
    static int getS() { return s; }          // getter-setter
    int at(int i) { return arr[i]; }         // array load -> getter-setter
    void setBoth(int a) { x = a; s = a; }    // getter-setter
    long constant() { return 42L; }          // ldc2_w, lreturn -> getter-setter

    void nothing() {}                        // only return -> empty
    static void nothingStatic() {}           // only return -> empty

    int sum(int a, int b) { return a + b; }  // iadd, no call -> single
    void loop() { for (int i = 0; i < 10; i++) x += i; } // single
    void store(int a) { int b = a; x = b; }  // istore is not a getter op -> single
    Object make() { return new Object(); }   // new, dup, invokespecial -> traced (a call)

    void calls() { nothing(); }              // invokevirtual -> traced
    void superCall() { super.notify(); }     // one invokespecial outside a ctor -> traced
    static void callsStatic() { nothingStatic(); } // invokestatic -> traced
    void callsInterface(Runnable q) { q.run(); }   // invokeinterface -> traced
    Runnable lambda() { return () -> {}; }   // invokedynamic -> traced; its body lambda$lambda$0 -> empty

    native void nat();                       // no code -> empty
}

abstract class AbstractBase {
    abstract void a();                       // abstract-class
    void b() { toString(); }                 // abstract-class, even with a call
}

interface Iface {
    void m();                                // interface
    default void d() { toString(); }         // interface
}
