import java.io.File;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A program whose methods do more per call than ProGuard's visitors, for
 * bench/runtime-overhead.sh: javac (the JDK's own, from the jdk.compiler
 * module, which the script may patch with an instrumented copy) compiles
 * the same sources ROUNDS times into OUTDIR, in one JVM.
 *
 * <p>Usage: JavacLoop ROUNDS OUTDIR SOURCE...
 */
public final class JavacLoop {
    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> argv = new ArrayList<>();
        argv.add("-nowarn");
        argv.add("-d");
        argv.add(args[1]);
        for (int i = 2; i < args.length; i++) {
            argv.add(args[i]);
        }
        for (int r = 0; r < rounds; r++) {
            int code = javac.run(null, null, null, argv.toArray(new String[0]));
            if (code != 0) {
                throw new IllegalStateException("javac failed with " + code + " in round " + r);
            }
        }
        System.out.println("javac-loop: " + rounds + " rounds, " + new File(args[1]).list().length + " entries");
    }
}
