package tbcheck;

import android.app.Activity;
import com.tencent.matrix.trace.core.AppMethodBeat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A spy around Matrix's AppMethodBeat: the app instrumented with
 * --beat-class tbcheck.FocusSpy calls it, and it counts every at() by
 * Activity and focus before passing each call on to Matrix. (Matrix's own
 * listener hears only the first focus of an Activity, not each change.)
 */
public final class FocusSpy {
    static final Map<String, Integer> AT = new LinkedHashMap<>();

    private FocusSpy() {
    }

    public static void i(int id) {
        AppMethodBeat.i(id);
    }

    public static void o(int id) {
        AppMethodBeat.o(id);
    }

    public static void at(Activity activity, boolean hasFocus) {
        AT.merge(activity.getClass().getName() + " " + hasFocus, 1, Integer::sum);
        AppMethodBeat.at(activity, hasFocus);
    }

    static int count(String activity, boolean hasFocus) {
        return AT.getOrDefault(activity + " " + hasFocus, 0);
    }
}
