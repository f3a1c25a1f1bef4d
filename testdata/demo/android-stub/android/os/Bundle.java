package android.os;

import java.util.HashMap;
import java.util.Map;

/** Stand-in for Android's Bundle: a string map. */
public class Bundle {
    private final Map<String, String> values = new HashMap<>();

    public void putString(String key, String value) {
        values.put(key, value);
    }

    public String getString(String key) {
        return values.get(key);
    }
}
