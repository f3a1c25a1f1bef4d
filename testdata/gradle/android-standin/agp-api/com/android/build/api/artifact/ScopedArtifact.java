package com.android.build.api.artifact;

/**
 * AGP 7.4+/8: a Kotlin sealed class whose members are {@code object}s, which
 * Java reaches through their {@code INSTANCE} field.
 */
public abstract class ScopedArtifact {
    ScopedArtifact() {
    }

    /** The .class files (directories and jars) of the scope. */
    public static final class CLASSES extends ScopedArtifact {
        public static final CLASSES INSTANCE = new CLASSES();

        private CLASSES() {
        }
    }
}
