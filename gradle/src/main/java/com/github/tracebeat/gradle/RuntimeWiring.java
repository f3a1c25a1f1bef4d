package com.github.tracebeat.gradle;

import java.io.File;

import org.gradle.api.GradleException;
import org.gradle.api.Project;

/**
 * {@code tracebeat { runtime = 'tracebeat' }}: the app gets tracebeat's
 * runtime as an implementation dependency, a jar the task
 * {@code tracebeatRuntime} writes with the binary (so the runtime is always
 * the one of the tool that instruments). The dependency is added when the
 * configuration is first resolved ({@code withDependencies}, Gradle 4.4+):
 * by then the build script has set the option, in whatever order it wrote
 * the block and the plugins.
 */
final class RuntimeWiring {
    static final String TASK_NAME = "tracebeatRuntime";
    static final String CONFIGURATION = "implementation";

    private RuntimeWiring() {
    }

    static void apply(final Project project, final TracebeatExtension ext) {
        final File jar = new File(project.getLayout().getBuildDirectory().get().getAsFile(), "tracebeat/runtime/tracebeat-runtime.jar");
        final RuntimeJarTask task = project.getTasks().create(TASK_NAME, RuntimeJarTask.class);
        task.setGroup("build");
        task.setDescription("Writes tracebeat's runtime for the app (tracebeat { runtime = 'tracebeat' }).");
        task.setJar(jar);
        project.afterEvaluate(p -> {
            task.setBeatClass(ext.getBeatClass());
            task.setSettings(ext.getRuntimeSettings());
            ToolLocator.configure(task, project, ext);
        });
        project.getConfigurations().all(c -> {
            if (CONFIGURATION.equals(c.getName())) {
                c.withDependencies(deps -> {
                    if (wanted(ext)) {
                        deps.add(project.getDependencies().create(project.files(jar).builtBy(task)));
                    }
                });
            }
        });
    }

    private static boolean wanted(TracebeatExtension ext) {
        String r = ext.getRuntime();
        if (TracebeatExtension.RUNTIME_TRACEBEAT.equals(r)) {
            return true;
        }
        if (r == null || TracebeatExtension.RUNTIME_MATRIX.equals(r)) {
            return false;
        }
        throw new GradleException("tracebeat: runtime must be '" + TracebeatExtension.RUNTIME_MATRIX + "' or '"
                + TracebeatExtension.RUNTIME_TRACEBEAT + "', got '" + r + "'");
    }
}
