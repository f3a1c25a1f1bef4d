package com.github.tracebeat.gradle;

import java.io.File;

import org.gradle.api.Project;

/** Finds the tracebeat binary: toolPath, then $TRACEBEAT_TOOL, then PATH. */
final class ToolLocator {
    static final String ENV_TOOL = "TRACEBEAT_TOOL";

    private ToolLocator() {
    }

    /** The binary, or null when none is configured or found (the task then fails saying how to set it). */
    static File locate(Project project, TracebeatExtension ext) {
        if (ext.getToolPath() != null) {
            return project.file(ext.getToolPath());
        }
        String env = System.getenv(ENV_TOOL);
        if (env != null && !env.isEmpty()) {
            return new File(env);
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        boolean windows = System.getProperty("os.name", "").toLowerCase().startsWith("windows");
        String name = windows ? "tracebeat.exe" : "tracebeat";
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            File candidate = new File(dir, name);
            if (candidate.isFile() && candidate.canExecute()) {
                return candidate;
            }
        }
        return null;
    }
}
