package com.github.tracebeat.gradle;

import org.gradle.api.Plugin;
import org.gradle.api.Project;

/**
 * {@code apply plugin: 'com.github.tracebeat'}: adds the {@code tracebeat { }}
 * extension and wires method-trace instrumentation into whichever of the
 * {@code java} and {@code com.android.application} plugins the project uses,
 * in either order of application.
 *
 * <p>AGP classes are named only by {@link AndroidWiring}, which the JVM loads
 * when the Android plugin shows up; a plain Java build never touches them.
 */
public class TracebeatPlugin implements Plugin<Project> {
    public static final String EXTENSION = "tracebeat";

    @Override
    public void apply(Project project) {
        TracebeatExtension ext = project.getExtensions().create(EXTENSION, TracebeatExtension.class, project);
        project.getPlugins().withId("java", p -> JavaWiring.apply(project, ext));
        project.getPlugins().withId("com.android.application", p -> {
            AndroidWiring.apply(project, ext);
            RuntimeWiring.apply(project, ext);
        });
    }
}
