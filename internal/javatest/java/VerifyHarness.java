import java.io.File;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Links every class of a jar in HotSpot so the bytecode verifier runs on it,
 * without running any static initializer.
 *
 * <p>Usage: {@code java VerifyHarness <jar> [dependency...]}. The jar and its
 * dependencies are opened by one URLClassLoader whose parent is the platform
 * loader, so the application class path (this harness) stays invisible and
 * the classes count as "remote" for HotSpot, which verifies them by default.
 *
 * <p>Output, one line per class entry in entry-name order, fields separated by
 * a tab, messages with backslash, tab and newline escaped:
 * <pre>
 * OK      class.Name
 * VERIFY  class.Name  java.lang.VerifyError: message
 * LINK    class.Name  java.lang.NoClassDefFoundError: message
 * ERROR   class.Name  any other throwable
 * DONE    count
 * </pre>
 */
public final class VerifyHarness {
    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: VerifyHarness <jar> [dependency...]");
            System.exit(2);
        }
        List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(args[0])) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (isLoadableClass(name)) {
                    names.add(name);
                }
            }
        }
        names.sort(null);

        URL[] urls = new URL[args.length];
        for (int i = 0; i < args.length; i++) {
            urls[i] = new File(args[i]).toURI().toURL();
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (URLClassLoader loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            for (String entry : names) {
                String className = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
                out.println(check(className, loader));
            }
        }
        out.println("DONE\t" + names.size());
        out.flush();
    }

    /** Entries the class loader can define by name: no module or multi-release metadata. */
    private static boolean isLoadableClass(String name) {
        return name.endsWith(".class")
                && !name.startsWith("META-INF/")
                && !name.equals("module-info.class")
                && !name.endsWith("/module-info.class");
    }

    private static String check(String className, ClassLoader loader) {
        try {
            Class<?> c = Class.forName(className, false, loader);
            // Reflection on members links the class (and so verifies it and
            // its supertypes) but does not initialize it.
            c.getDeclaredFields();
            c.getDeclaredMethods();
            c.getDeclaredConstructors();
            return "OK\t" + className;
        } catch (VerifyError e) {
            return "VERIFY\t" + className + "\t" + escape(e.toString());
        } catch (LinkageError e) {
            return "LINK\t" + className + "\t" + escape(e.toString());
        } catch (Throwable e) {
            return "ERROR\t" + className + "\t" + escape(e.toString());
        }
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default: b.append(ch);
            }
        }
        return b.toString();
    }
}
