package tracebeat.standin.agp;

import java.util.ArrayList;
import java.util.List;

import org.gradle.api.Task;
import org.gradle.api.file.Directory;
import org.gradle.api.file.FileSystemLocation;
import org.gradle.api.file.RegularFile;
import org.gradle.api.file.RegularFileProperty;
import org.gradle.api.provider.ListProperty;
import org.gradle.api.provider.Property;
import org.gradle.api.tasks.TaskProvider;

import com.android.build.api.artifact.ScopedArtifact;
import com.android.build.api.variant.ScopedArtifacts;
import com.android.build.api.variant.ScopedArtifactsOperation;

import kotlin.jvm.functions.Function1;

/** Scope ALL of one variant: records the CLASSES transforms in registration order. */
public class FakeScopedArtifacts implements ScopedArtifacts {
    private final List<Transform<?>> transforms = new ArrayList<Transform<?>>();

    @Override
    public <T extends Task> ScopedArtifactsOperation<T> use(TaskProvider<T> taskProvider) {
        return new Operation<T>(taskProvider);
    }

    List<Transform<?>> transforms() {
        return transforms;
    }

    /** One toTransform(CLASSES, ..) registration. */
    static final class Transform<T extends Task> {
        private final TaskProvider<T> provider;
        private final Function1<? super T, ? extends ListProperty<RegularFile>> jars;
        private final Function1<? super T, ? extends ListProperty<Directory>> dirs;
        private final Function1<? super T, ? extends RegularFileProperty> into;

        Transform(TaskProvider<T> provider, Function1<? super T, ? extends ListProperty<RegularFile>> jars,
                Function1<? super T, ? extends ListProperty<Directory>> dirs,
                Function1<? super T, ? extends RegularFileProperty> into) {
            this.provider = provider;
            this.jars = jars;
            this.dirs = dirs;
            this.into = into;
        }

        Task task() {
            return provider.get();
        }

        @SuppressWarnings("unchecked")
        ListProperty<RegularFile> inputJars(Task task) {
            return jars.invoke((T) task);
        }

        @SuppressWarnings("unchecked")
        ListProperty<Directory> inputDirectories(Task task) {
            return dirs.invoke((T) task);
        }

        @SuppressWarnings("unchecked")
        RegularFileProperty into(Task task) {
            return into.invoke((T) task);
        }
    }

    private final class Operation<T extends Task> implements ScopedArtifactsOperation<T> {
        private final TaskProvider<T> provider;

        Operation(TaskProvider<T> provider) {
            this.provider = provider;
        }

        @Override
        public void toTransform(ScopedArtifact type,
                Function1<? super T, ? extends ListProperty<RegularFile>> inputJars,
                Function1<? super T, ? extends ListProperty<Directory>> inputDirectories,
                Function1<? super T, ? extends RegularFileProperty> into) {
            if (type != ScopedArtifact.CLASSES.INSTANCE) {
                throw new UnsupportedOperationException("the stand-in transforms CLASSES only");
            }
            transforms.add(new Transform<T>(provider, inputJars, inputDirectories, into));
        }

        @Override
        public void toAppend(ScopedArtifact to,
                Function1<? super T, ? extends Property<? extends FileSystemLocation>> with) {
            throw new UnsupportedOperationException("not part of the stand-in");
        }

        @Override
        public void toGet(ScopedArtifact type,
                Function1<? super T, ? extends ListProperty<RegularFile>> inputJars,
                Function1<? super T, ? extends ListProperty<Directory>> inputDirectories) {
            throw new UnsupportedOperationException("not part of the stand-in");
        }

        @Override
        public void toReplace(ScopedArtifact type, Function1<? super T, ? extends RegularFileProperty> into) {
            throw new UnsupportedOperationException("not part of the stand-in");
        }
    }
}
