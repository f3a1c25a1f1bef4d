package com.android.build.api.variant;

/** AGP 8: selects the variants a callback sees (subset). */
public interface VariantSelector {
    VariantSelector all();

    VariantSelector withBuildType(String buildType);

    VariantSelector withName(String name);
}
