package com.github.tracebeat.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.file.FileCollection;
import org.gradle.api.file.RegularFile;
import org.gradle.api.provider.Provider;
import org.gradle.api.tasks.TaskProvider;

import com.android.build.api.artifact.ScopedArtifact;
import com.android.build.api.variant.AndroidComponentsExtension;
import com.android.build.api.variant.ScopedArtifacts;
import com.android.build.api.variant.Variant;

/**
 * Android apps, AGP 8+: for every enabled variant one
 * {@link InstrumentClassesTask} transforms the variant's complete class set
 * (scope ALL: the app, its subprojects and dependencies) before dexing, via
 * {@code variant.artifacts.forScope(ALL).use(task).toTransform(CLASSES, ..)}.
 * Maps go to {@code build/outputs/tracebeat/<variant>/} (with matrixOutputPaths:
 * {@code build/outputs/mapping/<variant>/}, where Matrix wrote them).
 *
 * <p>This is the only class that names AGP types; it is loaded only once
 * {@code com.android.application} is applied, so plain Java projects never
 * need AGP on the classpath.
 */
final class AndroidWiring {
    static final String EXTENSION = "androidComponents";

    private AndroidWiring() {
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static void apply(final Project project, final TracebeatExtension ext) {
        Object found = project.getExtensions().findByName(EXTENSION);
        if (!(found instanceof AndroidComponentsExtension)) {
            throw new GradleException("tracebeat: com.android.application is applied but '" + EXTENSION
                    + "' is " + (found == null ? "missing" : "a " + found.getClass().getName())
                    + "; tracebeat needs the Android Gradle Plugin 8.0 or newer");
        }
        final AndroidComponentsExtension components = (AndroidComponentsExtension) found;
        final Set<String> seen = new TreeSet<String>();
        Action<Variant> onVariant = variant -> {
            seen.add(variant.getName());
            if (ext.enabledFor(variant.getName())) {
                wire(project, ext, components, variant);
            } else {
                project.getLogger().info("tracebeat: variant {} is disabled, not instrumented", variant.getName());
            }
        };
        try {
            components.onVariants(components.selector().all(), onVariant);
        } catch (LinkageError e) {
            throw tooOld(e);
        }
        // A misspelt variant name would silently leave tracing as the default.
        project.getGradle().projectsEvaluated(g -> {
            List<String> unknown = new ArrayList<String>();
            for (String name : ext.namedVariants()) {
                if (!seen.contains(name)) {
                    unknown.add(name);
                }
            }
            if (!unknown.isEmpty()) {
                project.getLogger().warn("tracebeat: tracebeat.variants of project '{}' names unknown variant(s) {};"
                        + " the variants are {}", project.getPath(), unknown, seen);
            }
        });
    }

    private static void wire(final Project project, final TracebeatExtension ext,
            final AndroidComponentsExtension<?, ?, ?> components, Variant variant) {
        final String name = variant.getName();
        final File mapsDir = new File(project.getLayout().getBuildDirectory().get().getAsFile(),
                ext.mapsFolder() + "/" + name);
        TaskProvider<InstrumentClassesTask> task = TaskRegistration.register(project,
                "tracebeatInstrument" + capitalize(name), InstrumentClassesTask.class, t -> {
                    t.setGroup("build");
                    t.setDescription("Instruments all classes of variant " + name + " for method tracing (tracebeat).");
                    TaskSettings.apply(t, project, ext, name, mapsDir);
                    t.setReferenceClasspath(bootClasspath(project, components));
                });
        try {
            variant.getArtifacts()
                    .forScope(ScopedArtifacts.Scope.ALL)
                    .use(task)
                    .toTransform(ScopedArtifact.CLASSES.INSTANCE,
                            InstrumentClassesTask::getAllJars,
                            InstrumentClassesTask::getAllDirectories,
                            InstrumentClassesTask::getOutput);
        } catch (LinkageError e) {
            throw tooOld(e);
        }
    }

    /**
     * The boot classpath (android.jar, add-on jars), so that Activities whose
     * superclass lives there (e.g. an add-on's MapActivity) are recognised.
     * Optional: without it the tool knows the app's own classes and the
     * well-known SDK Activity bases only.
     */
    private static FileCollection bootClasspath(Project project, AndroidComponentsExtension<?, ?, ?> components) {
        try {
            final Provider<List<RegularFile>> boot = components.getSdkComponents().getBootClasspath();
            // Through a Callable: Gradle 4.4 unwraps a Provider but not the List inside it.
            return project.files((Callable<List<RegularFile>>) boot::get);
        } catch (LinkageError e) {
            project.getLogger().warn("tracebeat: cannot read the SDK boot classpath from this AGP ({});"
                    + " Activities are recognised from the app's own classes only", e.toString());
            return project.files();
        }
    }

    private static GradleException tooOld(LinkageError e) {
        return new GradleException("tracebeat: this Android Gradle Plugin lacks the ScopedArtifacts API"
                + " (added in AGP 7.4; tracebeat targets AGP 8.0+): " + e, e);
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
