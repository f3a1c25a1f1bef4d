package com.android.build.api.variant;

/** AGP 8 (subset). */
public interface ComponentIdentity {
    String getName();

    String getBuildType();

    String getFlavorName();
}
