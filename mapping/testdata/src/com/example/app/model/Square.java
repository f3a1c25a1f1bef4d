package com.example.app.model;

public class Square implements Shape {
    private final int side;

    public Square(int side) {
        this.side = side;
    }

    public static Square unit() {
        return new Square(1);
    }

    @Override
    public double area() {
        return side * side;
    }

    @Override
    public String name() {
        return "square";
    }

    public Square scaled(int factor) {
        return new Square(side * factor);
    }
}
