package com.android.build.api.artifact;

import com.android.build.api.variant.ScopedArtifacts;

/** AGP 8: a variant's artifacts (subset). */
public interface Artifacts {
    ScopedArtifacts forScope(ScopedArtifacts.Scope scope);
}
