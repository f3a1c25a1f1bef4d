package z;

/** An interface without code: nothing in it is instrumented, so its entry must come out byte-identical. */
public interface Plain {
    int size();
}
