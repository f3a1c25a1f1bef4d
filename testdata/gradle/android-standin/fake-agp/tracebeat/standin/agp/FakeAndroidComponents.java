package tracebeat.standin.agp;

import java.io.File;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.gradle.api.Action;
import org.gradle.api.Project;
import org.gradle.api.file.RegularFile;
import org.gradle.api.provider.Provider;

import com.android.build.api.dsl.SdkComponents;
import com.android.build.api.variant.AndroidComponentsExtension;
import com.android.build.api.variant.Variant;
import com.android.build.api.variant.VariantSelector;

import kotlin.Unit;
import kotlin.jvm.functions.Function1;

/** The stand-in's {@code androidComponents}: records callbacks, runs them per variant. */
public class FakeAndroidComponents implements AndroidComponentsExtension<Object, Object, Variant> {
    private final Project project;
    private final List<Action<Variant>> callbacks = new ArrayList<Action<Variant>>();
    private Provider<List<RegularFile>> bootClasspath;
    private boolean variantsCreated;

    FakeAndroidComponents(Project project) {
        this.project = project;
    }

    @Override
    public VariantSelector selector() {
        return new AllVariants();
    }

    @Override
    public void onVariants(VariantSelector selector, Function1<? super Variant, Unit> callback) {
        Action<Variant> action = v -> callback.invoke(v);
        onVariants(selector, action);
    }

    @Override
    public void onVariants(VariantSelector selector, Action<Variant> callback) {
        if (variantsCreated) {
            throw new IllegalStateException("onVariants called after the variants were created");
        }
        if (!(selector instanceof AllVariants)) {
            throw new UnsupportedOperationException("the stand-in supports selector().all() only");
        }
        callbacks.add(callback);
    }

    @Override
    public SdkComponents getSdkComponents() {
        return () -> bootClasspath;
    }

    void setBootClasspath(File androidJar) {
        RegularFile jar = project.getLayout().getProjectDirectory().file(androidJar.getAbsolutePath());
        bootClasspath = project.provider(() -> Collections.singletonList(jar));
    }

    FakeVariant createVariant(String name) {
        variantsCreated = true;
        FakeVariant variant = new FakeVariant(name);
        for (Action<Variant> callback : callbacks) {
            callback.execute(variant);
        }
        return variant;
    }

    private static final class AllVariants implements VariantSelector {
        @Override
        public VariantSelector all() {
            return this;
        }

        @Override
        public VariantSelector withBuildType(String buildType) {
            throw new UnsupportedOperationException("the stand-in supports selector().all() only");
        }

        @Override
        public VariantSelector withName(String name) {
            throw new UnsupportedOperationException("the stand-in supports selector().all() only");
        }
    }
}
