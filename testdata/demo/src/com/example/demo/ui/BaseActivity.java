package com.example.demo.ui;

import android.app.Activity;
import android.os.Bundle;

/** Common base of the app's activities; abstract, so Matrix's rules skip it. */
public abstract class BaseActivity extends Activity {
    private String title;

    public void start(Bundle state) {
        onCreate(state);
        onResume();
    }

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        title = screenName() + " for " + savedInstanceState.getString("user");
    }

    protected abstract String screenName();

    public String getTitle() {
        return title;
    }
}
