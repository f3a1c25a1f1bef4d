package tbcheck;

import android.app.Application;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/** The files the check tests report to, each named by a system property. */
final class CheckFiles {
    private CheckFiles() {
    }

    /**
     * Where the runtime records when nothing says (docs/android.md):
     * FILES/tracebeat/PROCESS.trace, PROCESS the process's name with ':'
     * as '-'.
     */
    static File traceOf(Application app) {
        String name = Application.getProcessName();
        if (name == null || name.isEmpty()) {
            name = app.getPackageName();
        }
        return new File(new File(app.getFilesDir(), "tracebeat"), name.replace(':', '-') + ".trace");
    }

    /** Writes text to the file the system property names, if it names one. */
    static void write(String property, String text) throws IOException {
        String path = System.getProperty(property);
        if (path == null) {
            return;
        }
        try (Writer w = new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8)) {
            w.write(text);
        }
    }
}
