package com.example.app;

/** App code next to the generated classes: traced. */
public class Main {
    public static void main(String[] args) {
        int s = 0;
        for (int i = 0; i < 3; i++) {
            s += R.string.lookup(R.string.app_name) + Manifest.permission.length();
        }
        System.out.println(BuildConfig.describe(s) + Manifest.all());
    }
}
