package com.example.lib;

/** A library's BuildConfig: generated, as its package holds an Android R. */
public final class BuildConfig {
    public static final String LIBRARY_PACKAGE_NAME = "com.example.lib";

    public static int version(int base) {
        return base * 2 + LIBRARY_PACKAGE_NAME.length();
    }
}
