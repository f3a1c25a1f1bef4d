package standin.app;

import java.util.ArrayList;
import java.util.List;

import com.google.android.maps.MapActivity;
import standin.lib.TextUtil;

/**
 * Declares no onWindowFocusChanged: the tool inserts one, which it can only
 * do knowing MapActivity's superclass from the boot classpath.
 */
public class MainActivity extends MapActivity {
    private final List<String> items = new ArrayList<String>();

    @Override
    protected void onCreate() {
        super.onCreate();
        for (String raw : new String[] {"alpha", " ", "beta"}) {
            try {
                items.add(TextUtil.require(raw));
            } catch (IllegalArgumentException e) {
                items.add("?");
            }
        }
    }

    String title() {
        return TextUtil.join(items, ",");
    }
}
