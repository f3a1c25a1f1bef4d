package com.example.app;

import com.example.app.model.Circle;
import com.example.app.model.Shape;
import com.example.app.model.Square;
import com.example.app.util.Formatter;
import com.example.app.util.Registry;

/** Entry point of the ProGuard fixture; the only class kept under its own name. */
public final class Main {
    public static void main(String[] args) {
        Registry registry = new Registry();
        registry.add(new Circle(2.0));
        registry.add(new Square(3));
        registry.add(Square.unit());
        Formatter formatter = new Formatter("shape");
        System.out.println(formatter.format("label"));
        System.out.println(formatter.format(args.length));
        System.out.println(formatter.format("sizes", new int[] {1, 2, 3}));
        System.out.println(formatter.format(registry.all()));
        Registry.Entry first = registry.first();
        System.out.println(first.describe(formatter));
        registry.forEach(shape -> System.out.println(shape.area()));
        System.out.println(registry.total());
    }
}
