package com.github.tracebeat.gradle;

import java.io.File;

import org.gradle.api.Project;

/**
 * Chooses the tracebeat binary of a task: {@code toolPath}, then
 * {@code $TRACEBEAT_TOOL} (both for people who build the tool themselves),
 * then the binary of the plugin's own release ({@link ReleaseTool}, resolved
 * when the task runs). A plugin built by hand has no release; it looks on
 * PATH instead.
 */
final class ToolLocator {
    static final String ENV_TOOL = "TRACEBEAT_TOOL";

    private ToolLocator() {
    }

    static void configure(ToolUser task, Project project, TracebeatExtension ext) {
        if (ext.getToolPath() != null) {
            task.setToolPath(project.file(ext.getToolPath()));
            return;
        }
        String env = System.getenv(ENV_TOOL);
        if (env != null && !env.isEmpty()) {
            task.setToolPath(new File(env));
            return;
        }
        ReleaseTool release = ReleaseTool.load();
        if (release != null) {
            task.setReleaseTool(release);
            return;
        }
        task.setToolPath(onPath());
    }

    /** tracebeat on PATH, or null. */
    private static File onPath() {
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
