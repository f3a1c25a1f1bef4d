package com.example.app.util;

import com.example.app.model.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

public class Registry {
    private final List<Entry> entries = new ArrayList<>();

    public void add(Shape shape) {
        entries.add(new Entry(shape, entries.size()));
    }

    public Shape[] all() {
        Shape[] out = new Shape[entries.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = entries.get(i).shape;
        }
        return out;
    }

    public Entry first() {
        return entries.get(0);
    }

    public void forEach(Consumer<Shape> action) {
        for (Entry entry : entries) {
            action.accept(entry.shape);
        }
    }

    public double total() {
        double sum = 0;
        for (Entry entry : entries) {
            sum += entry.shape.area();
        }
        return sum;
    }

    /** Nested class: its obfuscated name keeps the outer class's obfuscated name as prefix. */
    public static final class Entry {
        final Shape shape;
        final int index;

        Entry(Shape shape, int index) {
            this.shape = shape;
            this.index = index;
        }

        public String describe(Formatter formatter) {
            return formatter.format(shape.name()) + "@" + index;
        }
    }
}
