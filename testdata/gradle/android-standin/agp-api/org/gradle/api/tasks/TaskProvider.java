package org.gradle.api.tasks;

import org.gradle.api.Action;
import org.gradle.api.Task;
import org.gradle.api.provider.Provider;

/**
 * Gradle 4.9+'s TaskProvider (subset), missing from Debian's Gradle 4.4.1,
 * which runs the AGP stand-in. On real Gradle the real interface is used.
 */
public interface TaskProvider<T extends Task> extends Provider<T> {
    void configure(Action<? super T> action);

    String getName();
}
