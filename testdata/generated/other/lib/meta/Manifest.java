package lib.meta;

import java.util.ArrayList;
import java.util.List;

/** A Manifest that is not Android's (like scala.reflect.Manifest or Ant's taskdefs.Manifest): traced. */
public class Manifest {
    private final List<String> entries = new ArrayList<>();

    public int add(String e) {
        entries.add(e);
        return entries.size();
    }

    public static class Section {
        public int size(String s) {
            int n = 0;
            for (char c : s.toCharArray()) {
                n += c == ':' ? 1 : 0;
            }
            return n;
        }
    }
}
