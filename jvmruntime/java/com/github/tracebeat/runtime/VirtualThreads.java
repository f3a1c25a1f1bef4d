package com.github.tracebeat.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Thread.isVirtual (Java 21) for a runtime built for Java 8. Loaded only off
 * Android, which has no virtual threads, and before 8.0 no java.lang.invoke
 * either: named from {@link ThreadLog}, a class every call goes through, it
 * would keep that class from loading there.
 */
final class VirtualThreads {
    private VirtualThreads() {
    }

    /** Thread.isVirtual, or null on a JVM before 21, where no thread is virtual. */
    private static final MethodHandle IS_VIRTUAL = find();

    private static MethodHandle find() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    static boolean is(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            return false;
        }
    }
}
