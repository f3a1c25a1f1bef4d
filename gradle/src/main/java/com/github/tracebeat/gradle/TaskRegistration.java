package com.github.tracebeat.gradle;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

import org.gradle.api.Action;
import org.gradle.api.GradleException;
import org.gradle.api.Project;
import org.gradle.api.Task;
import org.gradle.api.tasks.TaskContainer;
import org.gradle.api.tasks.TaskProvider;

/**
 * Registers a task and returns its {@link TaskProvider}, which AGP's
 * {@code ScopedArtifacts.use(..)} takes.
 *
 * <p>{@code TaskContainer.register} (lazy registration) exists from Gradle 4.9
 * on and is looked up reflectively because the plugin is compiled against
 * Gradle 4.4. Every Gradle that AGP 8 runs on (8.0+) has it. The eager branch
 * exists only for Gradles before 4.9, where no AGP 8 can run: it lets the
 * Android wiring be exercised against the AGP stand-in on Debian's Gradle
 * 4.4.1, whose classpath then supplies the {@code TaskProvider} interface.
 */
final class TaskRegistration {
    private TaskRegistration() {
    }

    @SuppressWarnings("unchecked")
    static <T extends Task> TaskProvider<T> register(Project project, String name, Class<T> type,
            Action<? super T> configure) {
        Method register;
        try {
            register = TaskContainer.class.getMethod("register", String.class, Class.class, Action.class);
        } catch (NoSuchMethodException e) {
            return createdTaskProvider(project.getTasks().create(name, type, configure));
        }
        try {
            return (TaskProvider<T>) register.invoke(project.getTasks(), name, type, configure);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new GradleException("tracebeat: cannot register task " + name, cause);
        } catch (IllegalAccessException e) {
            throw new GradleException("tracebeat: cannot register task " + name, e);
        }
    }

    /**
     * A TaskProvider over a created task, for Gradles before 4.9 only. A
     * dynamic proxy rather than a class, so the plugin also compiles against
     * newer Gradle APIs, whose Provider has many more methods.
     */
    @SuppressWarnings("unchecked")
    private static <T extends Task> TaskProvider<T> createdTaskProvider(final T task) {
        return (TaskProvider<T>) Proxy.newProxyInstance(TaskRegistration.class.getClassLoader(),
                new Class<?>[] {TaskProvider.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "get":
                        case "getOrNull":
                        case "getOrElse":
                            return task;
                        case "isPresent":
                            return true;
                        case "getName":
                            return task.getName();
                        case "configure":
                            ((Action<? super T>) args[0]).execute(task);
                            return null;
                        case "toString":
                            return "provider(" + task + ")";
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            throw new UnsupportedOperationException("tracebeat: TaskProvider." + method.getName()
                                    + " is not available on Gradle " + task.getProject().getGradle().getGradleVersion());
                    }
                });
    }
}
