package com.android.build.api.variant;

import org.gradle.api.Task;
import org.gradle.api.tasks.TaskProvider;

/** AGP 7.4+/8: artifacts that exist per scope (project only, or everything incl. dependencies). */
public interface ScopedArtifacts {
    enum Scope {
        PROJECT,
        ALL
    }

    <T extends Task> ScopedArtifactsOperation<T> use(TaskProvider<T> taskProvider);
}
