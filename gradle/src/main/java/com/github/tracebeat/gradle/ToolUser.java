package com.github.tracebeat.gradle;

import java.io.File;

import org.gradle.api.GradleException;
import org.gradle.api.Task;

/** A task that runs the tracebeat binary, which {@link ToolLocator} chooses for it. */
interface ToolUser extends Task {
    File getToolPath();

    void setToolPath(File toolPath);

    ReleaseTool getReleaseTool();

    void setReleaseTool(ReleaseTool releaseTool);

    /** The binary to run: toolPath, else the release's (resolved now); a build failure that says what to set when there is none. */
    default File tool() {
        File tool = getToolPath();
        if (tool == null && getReleaseTool() != null) {
            tool = getReleaseTool().resolve(getProject());
        }
        if (tool == null) {
            throw new GradleException("tracebeat: no tracebeat binary for " + getPath()
                    + " (this plugin was built by hand, without a release): set tracebeat { toolPath ="
                    + " '/path/to/tracebeat' }, the TRACEBEAT_TOOL environment variable, or put tracebeat on PATH");
        }
        if (!tool.isFile()) {
            throw new GradleException("tracebeat: binary " + tool + " (toolPath) does not exist");
        }
        return tool;
    }
}
