package com.example.app.model;

public class Circle implements Shape {
    private final double radius;

    public Circle(double radius) {
        this.radius = radius;
    }

    @Override
    public double area() {
        return Math.PI * square(radius);
    }

    @Override
    public String name() {
        return "circle";
    }

    // Small private helper: an optimizing ProGuard run inlines it, which writes inline frames.
    private static double square(double value) {
        return value * value;
    }
}
