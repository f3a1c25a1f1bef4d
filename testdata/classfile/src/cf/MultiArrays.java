package cf;

/** Array creation: multianewarray with all or some dimensions, anewarray, newarray of each primitive, array stores. */
public final class MultiArrays {
    private MultiArrays() {
    }

    public static int shapes(int n) {
        int[][][] cube = new int[n][n + 1][2];
        long[][] partial = new long[n][];
        String[][] strings = new String[2][3];
        Object[][][][] four = new Object[1][2][3][];
        double[] ds = new double[n];
        boolean[] bs = new boolean[n];
        char[] cs = {'a', 'b'};
        byte[] bys = {1, 2, 3};
        short[] ss = new short[1];
        float[] fs = {1f};
        cube[0][1][1] = 5;
        partial[0] = new long[] {7L};
        strings[1][2] = "x";
        four[0][1][2] = new Object[0];
        ds[0] = 1.0;
        bs[0] = true;
        ss[0] = 3;
        return cube[0][1][1] + (int) partial[0][0] + strings[1][2].length() + four[0][1][2].length + (int) ds[0]
                + (bs[0] ? 1 : 0) + cs[1] + bys[2] + ss[0] + (int) fs[0];
    }
}
