package com.github.tracebeat.gradle;

import java.io.File;

import org.gradle.api.Project;
import org.gradle.api.Task;

/**
 * Plain Java projects: a {@code tracebeatJar} task that instruments the jar of
 * the {@code jar} task into {@code build/libs/<project>-traced.jar}, maps in
 * {@code build/outputs/tracebeat/}; {@code assemble} builds it while enabled.
 *
 * <p>Uses only Gradle 4.4-era API ({@code create}, eager) so it runs unchanged
 * on 4.4 and 8.x.
 */
final class JavaWiring {
    static final String TASK_NAME = "tracebeatJar";

    private JavaWiring() {
    }

    static void apply(final Project project, final TracebeatExtension ext) {
        final Task jar = project.getTasks().getByName("jar");
        final InstrumentJarTask task = project.getTasks().create(TASK_NAME, InstrumentJarTask.class);
        task.setGroup("build");
        task.setDescription("Instruments the classes of the jar task for method tracing (tracebeat).");
        // The jar task's outputs carry the task dependency on it.
        task.setClasses(jar.getOutputs().getFiles());
        // Settings are read once the build script has configured tracebeat { }.
        project.afterEvaluate(p -> {
            File buildDir = project.getLayout().getBuildDirectory().get().getAsFile();
            if (task.getOutputJar() == null) {
                task.setOutputJar(new File(buildDir, "libs/" + project.getName() + "-traced.jar"));
            }
            if (!ext.namedVariants().isEmpty()) {
                project.getLogger().warn("tracebeat: tracebeat.variants of {} names {}, but a plain Java project has no"
                        + " variants: the setting is ignored, and {} instruments the jar task's output as the tracebeat"
                        + " block says (enable = false turns it off)", project.getDisplayName(), ext.namedVariants(), TASK_NAME);
            }
            TaskSettings.apply(task, project, ext, null, new File(buildDir, ext.mapsFolder()));
            task.setEnabled(ext.isEnable());
            if (ext.isEnable()) {
                project.getTasks().getByName("assemble").dependsOn(task);
            }
        });
    }
}
