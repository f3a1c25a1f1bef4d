package com.example.lib;

/** A library's R, in another jar than the library's BuildConfig. */
public final class R {
    public static final class layout {
        public static final int row = 0x7f030000;
    }
}
