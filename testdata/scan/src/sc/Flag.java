package sc;

/** A constructor of the focus method's descriptor, (Z)V. */
public class Flag {
    final boolean on;

    Flag(boolean on) {
        this.on = on;
    }
}
