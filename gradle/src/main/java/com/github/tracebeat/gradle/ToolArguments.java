package com.github.tracebeat.gradle;

import java.io.File;

import org.gradle.api.GradleException;

/**
 * Builds the two files handed to {@code tracebeat instrument}: the
 * {@code --config} file ({@code key = value} lines, key = long flag name,
 * absolute paths) and the {@code @argfile} of inputs (one path per line).
 *
 * <p>The tool trims every line of both files and skips lines that start
 * with {@code #}, so a value with a line break or with blanks at either end
 * cannot be passed; such a path fails the build with the reason instead of
 * reaching the tool changed.
 */
final class ToolArguments {
    private final String owner;
    private final StringBuilder config = new StringBuilder();
    private final StringBuilder argFile = new StringBuilder();

    ToolArguments(String owner) {
        this.owner = owner;
        config.append("# tracebeat instrument options for ").append(owner)
                .append(", written by the tracebeat Gradle plugin\n");
        argFile.append("# tracebeat instrument inputs for ").append(owner).append('\n');
    }

    void option(String key, File value) {
        option(key, value == null ? null : value.getAbsolutePath());
    }

    void option(String key, String value) {
        if (value == null) {
            return;
        }
        check(key, value);
        config.append(key).append(" = ").append(value).append('\n');
    }

    /** An input line; absolute paths never start with '#', which would make it a comment. */
    void input(File file) {
        String path = file.getAbsolutePath();
        check("input", path);
        argFile.append(path).append('\n');
    }

    String configText() {
        return config.toString();
    }

    String argFileText() {
        return argFile.toString();
    }

    private void check(String key, String value) {
        if (value.isEmpty() || value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0
                || !value.trim().equals(value)) {
            throw new GradleException("tracebeat: " + owner + ": " + key + " '" + value + "' is empty, has a line"
                    + " break or starts or ends with blanks, which tracebeat's argument files cannot carry");
        }
    }
}
