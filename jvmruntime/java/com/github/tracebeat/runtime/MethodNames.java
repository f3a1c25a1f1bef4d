package com.github.tracebeat.runtime;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The names of the methods, read from the methodMapping.txt that
 * {@code -Dtracebeat.map} names: for the method patterns of the slow and
 * stall watch, and for the log lines of their reports. Without a map the
 * runtime knows ids only.
 */
final class MethodNames {
    private final Map<Integer, String> names;

    private MethodNames(Map<Integer, String> names) {
        this.names = names;
    }

    /** The map of tracebeat.map, or an empty one (with a line on stderr when it cannot be read). */
    static MethodNames load(String path) {
        Map<Integer, String> names = new HashMap<Integer, String>();
        if (path == null) {
            return new MethodNames(names);
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(new FileInputStream(path), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                int c1 = line.indexOf(',');
                int c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
                if (c2 < 0 || line.startsWith("#")) {
                    continue;
                }
                try {
                    names.put(Integer.parseInt(line.substring(0, c1).trim()), display(line.substring(c2 + 1).trim()));
                } catch (NumberFormatException e) {
                    // not a method line
                }
            }
        } catch (IOException e) {
            Settings.warn("tracebeat.map=" + path + ": " + e.getMessage() + "; method patterns match nothing");
        }
        return new MethodNames(names);
    }

    /** "class method desc" as decode shows it: "class.method(desc)". */
    static String display(String key) {
        String[] p = key.split(" ", 3);
        if (p.length < 2) {
            return key;
        }
        return p[0] + "." + p[1] + (p.length > 2 ? p[2] : "");
    }

    boolean loaded() {
        return !names.isEmpty();
    }

    /** The ids whose name the pattern finds, or null when every method is meant. */
    BitSet matching(Pattern p, String property) {
        if (p == null) {
            return null;
        }
        BitSet ids = new BitSet();
        if (!loaded()) {
            Settings.warn(property + " needs -Dtracebeat.map=methodMapping.txt to know the methods' names; it matches none");
            return ids;
        }
        for (Map.Entry<Integer, String> e : names.entrySet()) {
            if (p.matcher(e.getValue()).find()) {
                ids.set(e.getKey());
            }
        }
        return ids;
    }

    /** How a log line names the method of word. */
    String name(int word) {
        int id = word & Recorder.ID_MASK;
        if ((word & Recorder.SECTION) != 0) {
            String s = Recorder.SECTION_NAMES.get(id);
            return s != null ? s : "section " + id;
        }
        String n = names.get(id);
        return n != null ? n + " (method " + id + ")" : "method " + id;
    }
}
