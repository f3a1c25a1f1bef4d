package com.github.tracebeat.gradle;

import java.io.File;
import org.gradle.api.GradleException;
import org.gradle.api.Project;

/** Copies the {@code tracebeat { }} settings onto an instrument task. */
final class TaskSettings {
    private TaskSettings() {
    }

    /**
     * @param variant the Android variant whose block overrides the
     *     extension's settings, or null
     * @param mapsDir where the method map, ignore map and report go
     */
    static void apply(AbstractInstrumentTask task, Project project, TracebeatExtension ext, String variant, File mapsDir) {
        VariantSettings v = ext.block(variant);
        task.setMappingFile(file(project, ext.getMappingFile()));
        task.setBlackListFile(file(project, v != null && v.getBlackListFile() != null ? v.getBlackListFile() : ext.getBlackListFile()));
        task.setBaseMethodMapFile(file(project,
                v != null && v.getBaseMethodMapFile() != null ? v.getBaseMethodMapFile() : ext.getBaseMethodMapFile()));
        task.setMode(mode(v != null && v.getMode() != null ? v.getMode() : ext.getMode()));
        task.setTraceAll(or(v == null ? null : v.getTraceAll(), ext.isTraceAll()));
        java.util.List<String> rules = new java.util.ArrayList<String>();
        if (or(v == null ? null : v.getTraceEmpty(), ext.isTraceEmpty())) {
            rules.add("empty");
        }
        if (or(v == null ? null : v.getTraceGetterSetter(), ext.isTraceGetterSetter())) {
            rules.add("getter-setter");
        }
        if (or(v == null ? null : v.getTraceSingle(), ext.isTraceSingle())) {
            rules.add("single");
        }
        if (or(v == null ? null : v.getTraceAbstractClasses(), ext.isTraceAbstractClasses())) {
            rules.add("abstract-classes");
        }
        task.setTraceRules(rules);
        // ProjectLayout, not Project.getBuildDir(): deprecated in Gradle 8, gone in 9.
        File buildDir = project.getLayout().getBuildDirectory().get().getAsFile();
        task.setCacheDir(ext.isCache() ? new File(buildDir, "tracebeat-cache/" + task.getName()) : null);
        task.setBeatClass(ext.getBeatClass());
        task.setWorkers(ext.getWorkers());
        task.setExtraArgs(ext.getExtraArgs());
        ToolLocator.configure(task, project, ext);
        task.setToolVersion(ext.getToolVersion());
        task.setMethodMapFile(new File(mapsDir, fileName("methodMapFileName", ext.getMethodMapFileName())));
        task.setIgnoreMapFile(new File(mapsDir, fileName("ignoreMapFileName", ext.getIgnoreMapFileName())));
        task.setReportFile(ext.isReport() ? new File(mapsDir, fileName("reportFileName", ext.getReportFileName())) : null);
        task.setStrict(ext.isStrict());
    }

    private static File file(Project project, Object path) {
        return path == null ? null : project.file(path);
    }

    private static boolean or(Boolean own, boolean inherited) {
        return own != null ? own : inherited;
    }

    private static String mode(String mode) {
        if (!TracebeatExtension.MODE_BEAT.equals(mode) && !TracebeatExtension.MODE_SYSTRACE.equals(mode)) {
            throw new GradleException("tracebeat: mode must be '" + TracebeatExtension.MODE_BEAT + "' or '"
                    + TracebeatExtension.MODE_SYSTRACE + "', got '" + mode + "'");
        }
        return mode;
    }

    /** The map names are plain file names under build/outputs/tracebeat/, not paths. */
    private static String fileName(String option, String name) {
        if (name == null || name.isEmpty() || name.indexOf('/') >= 0 || name.indexOf('\\') >= 0
                || name.equals(".") || name.equals("..")) {
            throw new GradleException("tracebeat: " + option + " must be a plain file name, got '" + name + "'");
        }
        return name;
    }
}
