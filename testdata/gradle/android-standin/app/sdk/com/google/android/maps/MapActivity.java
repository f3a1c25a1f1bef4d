package com.google.android.maps;

import android.app.Activity;

/**
 * Stand-in for the Google APIs add-on's MapActivity, which sits on the boot
 * classpath of add-on targets. The app's Activity extends it, so only the
 * boot classpath (--classpath) tells the tool that the app class is an
 * Activity: the class is neither among the inputs nor a well-known SDK base.
 */
public class MapActivity extends Activity {
    private Object map;

    protected void onCreate() {
        map = null;
    }

    public void setMap(Object map) {
        this.map = map;
        onCreate();
    }

    public Object getMap() {
        return map;
    }
}
