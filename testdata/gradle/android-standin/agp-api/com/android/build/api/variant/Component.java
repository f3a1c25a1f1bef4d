package com.android.build.api.variant;

import com.android.build.api.artifact.Artifacts;

/** AGP 8 (subset). */
public interface Component extends ComponentIdentity {
    Artifacts getArtifacts();
}
