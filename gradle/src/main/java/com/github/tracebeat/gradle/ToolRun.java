package com.github.tracebeat.gradle;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.gradle.api.GradleException;
import org.gradle.api.logging.Logger;

/**
 * One run of {@code tracebeat instrument} for a task: writes the options to a
 * {@code --config} file and the inputs to an {@code @argfile} (both in the
 * task's temporary directory, so a long classpath never meets a command-line
 * limit), runs the binary, and turns a non-zero exit into a build failure that
 * carries the tool's stderr.
 */
final class ToolRun {
    /** How much of the tool's stderr a failure message quotes. */
    private static final int STDERR_TAIL_LINES = 200;

    private final AbstractInstrumentTask task;
    private final Logger logger;

    ToolRun(AbstractInstrumentTask task) {
        this.task = task;
        this.logger = task.getLogger();
    }

    void run() {
        File tool = task.tool();
        File output = task.instrumentOutput();
        prepareOutputs(output);

        ToolArguments args = new ToolArguments("task " + task.getPath());
        args.option("output", output);
        args.option("mode", task.getMode());
        args.option("method-map", task.getMethodMapFile());
        args.option("ignore-map", task.getIgnoreMapFile());
        args.option("report", task.getReportFile());
        args.option("strict", task.isStrict() ? "true" : null);
        args.option("mapping", task.getMappingFile());
        args.option("blacklist", task.getBlackListFile());
        args.option("base-map", task.getBaseMethodMapFile());
        args.option("beat-class", task.getBeatClass());
        args.option("workers", task.getWorkers() == null ? null : String.valueOf(task.getWorkers()));
        args.option("cache", task.getCacheDir());
        for (String rule : task.getTraceRules()) {
            args.option("trace-" + rule, "true");
        }
        for (File ref : task.getReferenceClasspath().getFiles()) {
            if (ref.exists()) {
                args.option("classpath", ref);
            }
        }
        List<File> inputs = task.instrumentInputs();
        for (File input : inputs) {
            // AGP lists class directories of every compiler, also of those that produced nothing.
            if (input.exists()) {
                args.input(input);
            } else {
                logger.info("tracebeat: skipping missing input {}", input);
            }
        }

        File tmp = task.getTemporaryDir();
        File configFile = new File(tmp, "instrument.conf");
        File argFile = new File(tmp, "inputs.args");
        write(configFile, args.configText());
        write(argFile, args.argFileText());

        List<String> command = new ArrayList<String>();
        command.add(tool.getAbsolutePath());
        command.add("instrument");
        command.add("--config");
        command.add(configFile.getAbsolutePath());
        command.add("--merge");
        if (task.isTraceAll()) {
            command.add("--trace-all");
        }
        command.add("@" + argFile.getAbsolutePath());
        // Last, so that the user's own flags win over what the plugin derived.
        command.addAll(task.getExtraArgs());
        execute(command, tmp, configFile, argFile);
    }

    /**
     * Creates the output folders. Old outputs stay: the tool replaces them
     * all at once when it is done, and leaves them as they were when it
     * fails or is interrupted, so a stopped build loses nothing (and Gradle
     * does not trust the outputs of a failed task).
     */
    private void prepareOutputs(File output) {
        File[] outputs = {output, task.getMethodMapFile(), task.getIgnoreMapFile()};
        if (task.getReportFile() != null) {
            outputs = new File[] {output, task.getMethodMapFile(), task.getIgnoreMapFile(), task.getReportFile()};
        }
        for (File f : outputs) {
            if (f == null) {
                throw new GradleException("tracebeat: " + task.getPath() + " has no output location set");
            }
            File parent = f.getAbsoluteFile().getParentFile();
            if (!parent.isDirectory() && !parent.mkdirs()) {
                throw new GradleException("tracebeat: cannot create directory " + parent);
            }
        }
    }

    private void execute(List<String> command, File tmp, File configFile, File argFile) {
        File stdout = new File(tmp, "stdout.txt");
        File stderr = new File(tmp, "stderr.txt");
        logger.info("tracebeat: running {}", command);
        int exit;
        try {
            Process process = new ProcessBuilder(command)
                    .directory(tmp)
                    .redirectOutput(stdout)
                    .redirectError(stderr)
                    .start();
            exit = process.waitFor();
        } catch (IOException e) {
            throw new GradleException("tracebeat: cannot start " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GradleException("tracebeat: interrupted while waiting for " + command.get(0), e);
        }
        List<String> out = readLines(stdout);
        List<String> err = readLines(stderr);
        for (String line : out) {
            if (line.startsWith("tracebeat:")) {
                logger.lifecycle(line);
            } else {
                logger.info(line);
            }
        }
        if (exit != 0) {
            StringBuilder msg = new StringBuilder();
            msg.append("tracebeat instrument failed (exit ").append(exit).append(") in ")
                    .append(task.getPath()).append(":\n");
            int from = Math.max(0, err.size() - STDERR_TAIL_LINES);
            if (from > 0) {
                msg.append("  ... (").append(from).append(" earlier lines in ").append(stderr).append(")\n");
            }
            for (String line : err.subList(from, err.size())) {
                msg.append("  ").append(line).append('\n');
            }
            msg.append("command: ").append(join(command)).append('\n');
            msg.append("config: ").append(configFile).append(", inputs: ").append(argFile);
            throw new GradleException(msg.toString());
        }
        for (String line : err) {
            logger.warn(line);
        }
    }

    private static void write(File file, String text) {
        try {
            Files.write(file.toPath(), text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new GradleException("tracebeat: cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<String> readLines(File file) {
        try {
            return Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new GradleException("tracebeat: cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static String join(List<String> parts) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(p);
        }
        return b.toString();
    }
}
