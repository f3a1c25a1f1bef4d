package com.example.app.model;

/** A shape; implemented by Circle and Square so that renamed overrides share one name. */
public interface Shape {
    double area();

    String name();
}
