package com.github.tracebeat.gradle;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.gradle.api.DefaultTask;
import org.gradle.api.file.FileCollection;
import org.gradle.api.tasks.CompileClasspath;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.InputFile;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.OutputFile;
import org.gradle.api.tasks.PathSensitive;
import org.gradle.api.tasks.PathSensitivity;
import org.gradle.api.tasks.TaskAction;

/**
 * What both instrument tasks share: the options and side files of
 * {@code tracebeat instrument} and the action that runs it. Subclasses add the
 * classes to read and the jar to write.
 *
 * <p>Every input is declared so that the build cache key is relocatable: class
 * inputs are classpaths (content only, no absolute paths), side files are
 * content-only ({@link PathSensitivity#NONE}), and the tool is keyed by its
 * content or by the version string the user vouches for, never by where it is
 * installed.
 */
public abstract class AbstractInstrumentTask extends DefaultTask implements ToolUser {
    private File mappingFile;
    private File blackListFile;
    private File baseMethodMapFile;
    private String mode = TracebeatExtension.MODE_BEAT;
    private boolean traceAll;
    private List<String> traceRules = new ArrayList<String>();
    private File cacheDir;
    private String beatClass;
    private Integer workers;
    private List<String> extraArgs = new ArrayList<String>();
    private File toolPath;
    private ReleaseTool releaseTool;
    private String toolVersion;
    private FileCollection referenceClasspath = getProject().files();
    private File methodMapFile;
    private File ignoreMapFile;
    private File reportFile;
    private boolean strict;

    /** The class directories and jars to instrument, in precedence order (first wins). */
    protected abstract List<File> instrumentInputs();

    /** The single jar all inputs are merged into. */
    protected abstract File instrumentOutput();

    @TaskAction
    public void instrument() {
        new ToolRun(this).run();
    }

    @Optional
    @InputFile
    @PathSensitive(PathSensitivity.NONE)
    public File getMappingFile() {
        return mappingFile;
    }

    public void setMappingFile(File mappingFile) {
        this.mappingFile = mappingFile;
    }

    /** The block list as configured; it may not exist yet (see getExistingBlackListFile). */
    @Internal
    public File getBlackListFile() {
        return blackListFile;
    }

    public void setBlackListFile(File blackListFile) {
        this.blackListFile = blackListFile;
    }

    /**
     * The block list when it exists: the input Gradle checks. A file that
     * does not exist is no input (the tool warns and blocks nothing, as
     * Matrix does), and is one once it appears.
     */
    @Optional
    @InputFile
    @PathSensitive(PathSensitivity.NONE)
    public File getExistingBlackListFile() {
        return existing(blackListFile);
    }

    /** The base map as configured; before the first release it does not exist. */
    @Internal
    public File getBaseMethodMapFile() {
        return baseMethodMapFile;
    }

    public void setBaseMethodMapFile(File baseMethodMapFile) {
        this.baseMethodMapFile = baseMethodMapFile;
    }

    /**
     * The base map when it exists: the input Gradle checks. Matrix reads a
     * missing base map as an empty one, and so does the tool (with a
     * warning): the first build of a project works.
     */
    @Optional
    @InputFile
    @PathSensitive(PathSensitivity.NONE)
    public File getExistingBaseMethodMapFile() {
        return existing(baseMethodMapFile);
    }

    private static File existing(File f) {
        return f != null && f.isFile() ? f : null;
    }

    @Input
    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    @Input
    public boolean isTraceAll() {
        return traceAll;
    }

    public void setTraceAll(boolean traceAll) {
        this.traceAll = traceAll;
    }

    /**
     * The Matrix rules switched off: "empty", "getter-setter", "single",
     * "abstract-classes" (each a --trace-NAME flag).
     */
    @Input
    public List<String> getTraceRules() {
        return traceRules;
    }

    public void setTraceRules(List<String> traceRules) {
        this.traceRules = new ArrayList<String>(traceRules);
    }

    /**
     * The tool's --cache directory, or null. Not an output of the task:
     * what it holds only makes a run faster and never changes what the run
     * writes (the tool checks every entry it reuses against the inputs,
     * the options and its own binary), so the build cache stays right
     * without it.
     */
    @Internal
    public File getCacheDir() {
        return cacheDir;
    }

    public void setCacheDir(File cacheDir) {
        this.cacheDir = cacheDir;
    }

    @Optional
    @Input
    public String getBeatClass() {
        return beatClass;
    }

    public void setBeatClass(String beatClass) {
        this.beatClass = beatClass;
    }

    /** Not an input: the tool's output is the same at any thread count. */
    @Internal
    public Integer getWorkers() {
        return workers;
    }

    public void setWorkers(Integer workers) {
        this.workers = workers;
    }

    /** --strict: what is a warning otherwise (a class that does not parse, a missing base map or block list, a block-list line Matrix would skip) fails the build. */
    @Input
    public boolean isStrict() {
        return strict;
    }

    public void setStrict(boolean strict) {
        this.strict = strict;
    }

    @Input
    public List<String> getExtraArgs() {
        return extraArgs;
    }

    public void setExtraArgs(List<String> extraArgs) {
        this.extraArgs = new ArrayList<String>(extraArgs);
    }

    /** Where the binary is; internal because the location must not enter the cache key. */
    @Internal
    public File getToolPath() {
        return toolPath;
    }

    public void setToolPath(File toolPath) {
        this.toolPath = toolPath;
    }

    /** The release binary to resolve when no toolPath is set (see ReleaseTool). */
    @Internal
    public ReleaseTool getReleaseTool() {
        return releaseTool;
    }

    public void setReleaseTool(ReleaseTool releaseTool) {
        this.releaseTool = releaseTool;
    }

    /**
     * The release binary as a cache-key input: its version, platform and
     * SHA-256 (known before it is resolved), so outputs of two tool versions
     * never mix.
     */
    @Optional
    @Input
    public String getToolRelease() {
        return releaseTool == null ? null : releaseTool.identity();
    }

    @Optional
    @Input
    public String getToolVersion() {
        return toolVersion;
    }

    public void setToolVersion(String toolVersion) {
        this.toolVersion = toolVersion;
    }

    /**
     * The binary as a cache-key input, by content only; absent when
     * {@link #getToolVersion()} stands for it.
     */
    @Optional
    @InputFile
    @PathSensitive(PathSensitivity.NONE)
    public File getToolBinary() {
        return toolVersion == null && releaseTool == null ? toolPath : null;
    }

    /**
     * Read-only classes the tool consults for the Activity hierarchy
     * (--classpath), e.g. android.jar. Only class structure matters, hence a
     * compile classpath.
     */
    @CompileClasspath
    public FileCollection getReferenceClasspath() {
        return referenceClasspath;
    }

    public void setReferenceClasspath(FileCollection referenceClasspath) {
        this.referenceClasspath = referenceClasspath;
    }

    @OutputFile
    public File getMethodMapFile() {
        return methodMapFile;
    }

    public void setMethodMapFile(File methodMapFile) {
        this.methodMapFile = methodMapFile;
    }

    @OutputFile
    public File getIgnoreMapFile() {
        return ignoreMapFile;
    }

    public void setIgnoreMapFile(File ignoreMapFile) {
        this.ignoreMapFile = ignoreMapFile;
    }

    /** The JSON report; null when {@code tracebeat { report = false }}. */
    @Optional
    @OutputFile
    public File getReportFile() {
        return reportFile;
    }

    public void setReportFile(File reportFile) {
        this.reportFile = reportFile;
    }
}
