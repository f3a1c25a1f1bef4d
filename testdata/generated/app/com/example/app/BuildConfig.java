package com.example.app;

/** What the Android build writes next to R. */
public final class BuildConfig {
    public static final boolean DEBUG = Boolean.parseBoolean("true");
    public static final String APPLICATION_ID = "com.example.app";

    public static String describe(int n) {
        return APPLICATION_ID + ":" + n;
    }
}
