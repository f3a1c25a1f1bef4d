package standin.lib;

import java.util.List;

/** A "dependency" jar: reaches the transform through allJars. */
public class TextUtil {
    public static String join(List<String> parts, String separator) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            if (b.length() > 0) {
                b.append(separator);
            }
            b.append(p);
        }
        return b.toString();
    }

    /** Throws for blank text; callers catch it. */
    public static String require(String text) {
        if (text.trim().isEmpty()) {
            throw new IllegalArgumentException("blank");
        }
        return text.trim();
    }
}
