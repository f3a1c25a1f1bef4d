package com.example.app;

/** What aapt2 writes for an app: R with one nested class per resource type. */
public final class R {
    private R() {
    }

    public static final class string {
        public static final int app_name = 0x7f010000;

        public static int lookup(int id) {
            return id == app_name ? 1 : 0;
        }
    }

    public static final class id {
        public static final int main = 0x7f020000;
    }
}
