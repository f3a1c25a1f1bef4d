package com.github.tracebeat.gradle;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.gradle.api.DefaultTask;
import org.gradle.api.GradleException;
import org.gradle.api.tasks.Input;
import org.gradle.api.tasks.Internal;
import org.gradle.api.tasks.Optional;
import org.gradle.api.tasks.OutputFile;
import org.gradle.api.tasks.TaskAction;

/**
 * Writes tracebeat's runtime for an Android app ({@code tracebeat runtime
 * --android}), which {@code tracebeat { runtime = 'tracebeat' }} adds to the
 * app in place of Matrix's matrix-trace-canary. The jar is the binary's
 * own: the same runtime as the binary that instruments, never a second
 * copy to keep in step.
 */
public class RuntimeJarTask extends DefaultTask implements ToolUser {
    private File jar;
    private String beatClass;
    private Map<String, String> settings = new TreeMap<String, String>();
    private File toolPath;
    private ReleaseTool releaseTool;

    @OutputFile
    public File getJar() {
        return jar;
    }

    public void setJar(File jar) {
        this.jar = jar;
    }

    /** The class instrumented code calls, when not Matrix's (tracebeat.beatClass). */
    @Optional
    @Input
    public String getBeatClass() {
        return beatClass;
    }

    public void setBeatClass(String beatClass) {
        this.beatClass = beatClass;
    }

    /** The settings the jar carries (tracebeat.runtimeSettings), in key order. */
    @Input
    public Map<String, String> getSettings() {
        return settings;
    }

    public void setSettings(Map<String, String> settings) {
        this.settings = new TreeMap<String, String>(settings);
    }

    @Internal
    public File getToolPath() {
        return toolPath;
    }

    @Override
    public void setToolPath(File toolPath) {
        this.toolPath = toolPath;
    }

    @Internal
    @Override
    public ReleaseTool getReleaseTool() {
        return releaseTool;
    }

    @Override
    public void setReleaseTool(ReleaseTool releaseTool) {
        this.releaseTool = releaseTool;
    }

    /** The release binary as an input: another tool version writes another runtime. */
    @Optional
    @Input
    public String getToolRelease() {
        return releaseTool == null ? null : releaseTool.identity();
    }

    @TaskAction
    public void write() {
        File tool = tool();
        List<String> command = new ArrayList<String>();
        command.add(tool.getAbsolutePath());
        command.add("runtime");
        command.add("--android");
        command.add("-o");
        command.add(jar.getAbsolutePath());
        if (beatClass != null) {
            command.add("--beat-class");
            command.add(beatClass);
        }
        for (Map.Entry<String, String> e : settings.entrySet()) {
            command.add("--set");
            command.add(e.getKey() + "=" + e.getValue());
        }
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = read(p.getInputStream());
            int exit = p.waitFor();
            if (exit != 0) {
                throw new GradleException("tracebeat runtime failed (exit " + exit + ") in " + getPath() + ":\n" + out
                        + "command: " + String.join(" ", command));
            }
            getLogger().info(out.trim());
        } catch (IOException e) {
            throw new GradleException("tracebeat: cannot start " + tool + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GradleException("tracebeat: interrupted while waiting for " + tool, e);
        }
    }

    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0;) {
            b.write(buf, 0, n);
        }
        return new String(b.toByteArray(), StandardCharsets.UTF_8);
    }
}
