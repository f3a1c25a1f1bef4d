package sc;

/** An Activity without a focus method of its own. */
public class Quiet extends Screen {
    void quiet() {}
}
