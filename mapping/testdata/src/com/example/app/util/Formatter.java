package com.example.app.util;

import com.example.app.model.Shape;

/** Overloads of format: ProGuard gives overloads with different descriptors one obfuscated name. */
public class Formatter {
    private final String prefix;
    private int calls;

    public Formatter(String prefix) {
        this.prefix = prefix;
    }

    public String format(String text) {
        calls++;
        return prefix + ":" + text;
    }

    public String format(int number) {
        calls++;
        return prefix + "#" + number;
    }

    public String format(String label, int[] values) {
        StringBuilder out = new StringBuilder(format(label));
        for (int value : values) {
            out.append(' ').append(value);
        }
        return out.toString();
    }

    public String format(Shape[] shapes) {
        StringBuilder out = new StringBuilder();
        for (Shape shape : shapes) {
            out.append(format(shape.name())).append(';');
        }
        return out.toString();
    }

    public int calls() {
        return calls;
    }
}
