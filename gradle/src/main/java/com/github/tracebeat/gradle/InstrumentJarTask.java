package com.github.tracebeat.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.CacheableTask;
import org.gradle.api.tasks.Classpath;
import org.gradle.api.tasks.OutputFile;

/**
 * Plain Java projects: instruments the output of the {@code jar} task (or any
 * jars and class directories) into one traced jar beside it.
 */
@CacheableTask
public class InstrumentJarTask extends AbstractInstrumentTask {
    private FileCollection classes = getProject().files();
    private File outputJar;

    /**
     * A classpath, so the cache key holds entry names and contents but neither
     * the absolute paths nor the timestamps of the jar entries.
     */
    @Classpath
    public FileCollection getClasses() {
        return classes;
    }

    public void setClasses(FileCollection classes) {
        this.classes = classes;
    }

    @OutputFile
    public File getOutputJar() {
        return outputJar;
    }

    public void setOutputJar(File outputJar) {
        this.outputJar = outputJar;
    }

    @Override
    protected List<File> instrumentInputs() {
        return new ArrayList<File>(classes.getFiles());
    }

    @Override
    protected File instrumentOutput() {
        return outputJar;
    }
}
