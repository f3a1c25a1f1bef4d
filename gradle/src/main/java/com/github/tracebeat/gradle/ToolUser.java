package com.github.tracebeat.gradle;

import java.io.File;

/** A task that runs the tracebeat binary, which {@link ToolLocator} chooses for it. */
interface ToolUser {
    void setToolPath(File toolPath);

    void setReleaseTool(ReleaseTool releaseTool);
}
