package cf;

/**
 * Constant pool coverage: Integer, Float, Long, Double and String constants
 * (ConstantValue attributes and ldc/ldc_w/ldc2_w), edge values (NaN,
 * infinities, -0.0, MIN/MAX), non-ASCII and supplementary characters and
 * NUL in strings (modified UTF-8), class literals of arrays and primitives.
 * MethodHandle and MethodType constants come with every lambda (see
 * Lambdas) as bootstrap arguments.
 */
public final class ConstantPool {
    private ConstantPool() {
    }

    public static final int BIG_INT = 1_000_000;
    public static final int MIN_INT = Integer.MIN_VALUE;
    public static final float PI_F = 3.14159f;
    public static final float NAN_F = Float.NaN;
    public static final float NEG_ZERO_F = -0.0f;
    public static final double INF_D = Double.POSITIVE_INFINITY;
    public static final double NEG_ZERO_D = -0.0;
    public static final double TINY_D = Double.MIN_VALUE;
    public static final long BIG_LONG = 0x7fff_ffff_ffffL;
    public static final long MIN_LONG = Long.MIN_VALUE;
    public static final String TEXT = "h\u00e9llo w\u00f6rld \u4e2d\u6587 \ud83d\ude00 nul:\u0000 end";
    public static final String EMPTY = "";
    public static final char CHAR = '\uffff';
    public static final boolean FLAG = true;
    public static final byte BYTE = -128;
    public static final short SHORT = 32767;

    public static Object[] values() {
        float f = 2.0f;
        double d = 1.0;
        long l = 1L;
        return new Object[] {
            BIG_INT, MIN_INT, PI_F, NAN_F, NEG_ZERO_F, INF_D, NEG_ZERO_D, TINY_D, BIG_LONG, MIN_LONG,
            TEXT, EMPTY, CHAR, FLAG, BYTE, SHORT,
            f * 3.0f, d * 7.25, l + 2L, 123456789, 65536, -32769, 1.5e300, 0.1f,
            int[][].class, String[].class, int.class, void.class, ConstantPool.class,
            """
            text block
              with "quotes" and \t tabs
            """,
        };
    }
}
