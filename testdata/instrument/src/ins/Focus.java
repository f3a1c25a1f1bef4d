package ins;

import android.app.Activity;

/**
 * The focus rule: calls onWindowFocusChanged(true) once on each kind of
 * Activity (and once on a look-alike that is not one). After
 * instrumentation AppMethodBeat.at must run exactly once per Activity call,
 * with the runtime class of the receiver: ins.MainActivity,
 * ins.SecondActivity, ins.PlainActivity, ins.DirectActivity and the
 * anonymous ins.Focus$1 once each; never for NotAnActivity.
 */
public final class Focus {
    private Focus() {
    }

    public static void main(String[] args) {
        MainActivity main = new MainActivity();
        SecondActivity second = new SecondActivity();
        PlainActivity plain = new PlainActivity();
        DirectActivity direct = new DirectActivity();
        NotAnActivity fake = new NotAnActivity();
        StringBuilder anonEvents = new StringBuilder();
        Activity anon = new Activity() {
            @Override
            public void onWindowFocusChanged(boolean hasFocus) {
                super.onWindowFocusChanged(hasFocus);
                anonEvents.append("anon=").append(hasFocus);
            }
        };
        main.onWindowFocusChanged(true);
        second.onWindowFocusChanged(true);
        plain.onWindowFocusChanged(true);
        direct.onWindowFocusChanged(true);
        anon.onWindowFocusChanged(true);
        fake.onWindowFocusChanged(true);
        System.out.println("focus: " + main.events() + " " + second.events() + " " + plain.events() + " "
                + direct.last + " " + anonEvents + " fake=" + fake.calls);
    }
}
