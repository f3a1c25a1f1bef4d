package com.android.build.api.dsl;

import java.util.List;

import org.gradle.api.file.RegularFile;
import org.gradle.api.provider.Provider;

/** AGP 8 (subset). */
public interface SdkComponents {
    /** android.jar and friends, available at execution time. */
    Provider<List<RegularFile>> getBootClasspath();
}
