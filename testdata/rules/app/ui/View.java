package app.ui;

/** -blockpackage app.ui blocks it, but -traceclassmethods names draw(). */
public class View {
    public void draw() {
        layout();
    }

    /** blocked with its package */
    public void layout() {
        System.out.println("layout");
    }
}
