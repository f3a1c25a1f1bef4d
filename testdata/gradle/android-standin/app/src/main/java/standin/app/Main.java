package standin.app;

/** Plays the framework: creates the Activity and gives it window focus. */
public class Main {
    public static void main(String[] args) {
        MainActivity activity = new MainActivity();
        activity.setMap("map");
        activity.onWindowFocusChanged(true);
        System.out.println(activity.title());
    }
}
