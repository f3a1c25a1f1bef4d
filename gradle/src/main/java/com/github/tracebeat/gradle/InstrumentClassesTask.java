package com.github.tracebeat.gradle;

import java.io.File;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.file.Directory;
import org.gradle.api.file.ProjectLayout;
import org.gradle.api.file.RegularFile;
import org.gradle.api.file.RegularFileProperty;
import org.gradle.api.model.ObjectFactory;
import org.gradle.api.provider.ListProperty;
import org.gradle.api.tasks.CacheableTask;
import org.gradle.api.tasks.Classpath;
import org.gradle.api.tasks.OutputFile;

/**
 * Android (AGP 8+): the task handed to
 * {@code ScopedArtifacts.use(..).toTransform(CLASSES, ..)}. AGP fills
 * {@link #getAllJars()} and {@link #getAllDirectories()} with every class of
 * the app (project, subprojects, dependencies) and sets {@link #getOutput()}
 * to the one jar that goes on to dexing.
 *
 * <p>The property types are the ones AGP's function references require. The
 * inputs are declared as classpaths rather than AGP's sample {@code @InputFiles}
 * because the dependency jars live under machine-specific Gradle cache paths;
 * a classpath key hashes contents only, so the result is shared between
 * machines and CI.
 */
@CacheableTask
public class InstrumentClassesTask extends AbstractInstrumentTask {
    private final ListProperty<RegularFile> allJars = getProject().getObjects().listProperty(RegularFile.class);
    private final ListProperty<Directory> allDirectories = getProject().getObjects().listProperty(Directory.class);
    private final RegularFileProperty output = newFileProperty(getProject());

    @Classpath
    public ListProperty<RegularFile> getAllJars() {
        return allJars;
    }

    @Classpath
    public ListProperty<Directory> getAllDirectories() {
        return allDirectories;
    }

    @OutputFile
    public RegularFileProperty getOutput() {
        return output;
    }

    /** Project class directories first, then jars: on a duplicate entry the app's own class wins. */
    @Override
    protected List<File> instrumentInputs() {
        List<File> files = new ArrayList<File>();
        for (Directory dir : allDirectories.get()) {
            files.add(dir.getAsFile());
        }
        for (RegularFile jar : allJars.get()) {
            files.add(jar.getAsFile());
        }
        return files;
    }

    @Override
    protected File instrumentOutput() {
        return output.get().getAsFile();
    }

    /**
     * {@code ObjectFactory.fileProperty()} exists from Gradle 5.0 on,
     * {@code ProjectLayout.fileProperty()} from 4.3 until its removal; looked
     * up reflectively because the plugin is compiled against Gradle 4.4.
     */
    private static RegularFileProperty newFileProperty(Project project) {
        // Looked up on the public API interfaces: the implementing classes may not be public.
        Object[][] candidates = {
            {ObjectFactory.class, project.getObjects()},
            {ProjectLayout.class, project.getLayout()},
        };
        for (Object[] candidate : candidates) {
            try {
                Method factory = ((Class<?>) candidate[0]).getMethod("fileProperty");
                return (RegularFileProperty) factory.invoke(candidate[1]);
            } catch (NoSuchMethodException e) {
                // try the next factory
            } catch (ReflectiveOperationException e) {
                throw new GradleException("tracebeat: cannot create a file property on Gradle "
                        + project.getGradle().getGradleVersion(), e);
            }
        }
        throw new GradleException("tracebeat: this Gradle (" + project.getGradle().getGradleVersion()
                + ") has neither ObjectFactory.fileProperty() nor ProjectLayout.fileProperty()");
    }
}
