package com.example.app;

/** The app's custom permissions, as the Android build writes them. */
public final class Manifest {
    public static final class permission {
        public static final String C2D = "com.example.app.permission.C2D";

        public static int length() {
            return C2D.length();
        }
    }

    public static String all() {
        return permission.C2D + ";";
    }
}
