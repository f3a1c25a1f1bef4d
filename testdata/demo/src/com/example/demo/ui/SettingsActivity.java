package com.example.demo.ui;

/** A second screen with its own onWindowFocusChanged, which gets the focus call. */
public class SettingsActivity extends BaseActivity {
    private boolean focused;

    @Override
    protected String screenName() {
        return "settings";
    }

    @Override
    public void onWindowFocusChanged(boolean hasFocus) {
        super.onWindowFocusChanged(hasFocus);
        focused = hasFocus;
        System.out.println(getTitle() + (focused ? " has focus" : " lost focus"));
    }
}
