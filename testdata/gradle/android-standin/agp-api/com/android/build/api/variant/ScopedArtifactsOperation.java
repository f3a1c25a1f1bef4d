package com.android.build.api.variant;

import com.android.build.api.artifact.ScopedArtifact;
import kotlin.jvm.functions.Function1;
import org.gradle.api.Task;
import org.gradle.api.file.Directory;
import org.gradle.api.file.FileSystemLocation;
import org.gradle.api.file.RegularFile;
import org.gradle.api.file.RegularFileProperty;
import org.gradle.api.provider.ListProperty;
import org.gradle.api.provider.Property;

/**
 * AGP 7.4+/8: operations on a scoped artifact. The Kotlin parameters are
 * function types {@code (T) -> X}, which Java sees as {@code Function1}.
 */
public interface ScopedArtifactsOperation<T extends Task> {
    void toAppend(ScopedArtifact to, Function1<? super T, ? extends Property<? extends FileSystemLocation>> with);

    void toGet(ScopedArtifact type,
            Function1<? super T, ? extends ListProperty<RegularFile>> inputJars,
            Function1<? super T, ? extends ListProperty<Directory>> inputDirectories);

    void toTransform(ScopedArtifact type,
            Function1<? super T, ? extends ListProperty<RegularFile>> inputJars,
            Function1<? super T, ? extends ListProperty<Directory>> inputDirectories,
            Function1<? super T, ? extends RegularFileProperty> into);

    void toReplace(ScopedArtifact type, Function1<? super T, ? extends RegularFileProperty> into);
}
