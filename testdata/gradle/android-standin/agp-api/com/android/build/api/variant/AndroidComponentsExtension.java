package com.android.build.api.variant;

import com.android.build.api.dsl.SdkComponents;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;
import org.gradle.api.Action;

/** AGP 8: the {@code androidComponents} extension (subset). */
public interface AndroidComponentsExtension<DslExtensionT, VariantBuilderT, VariantT extends Variant> {
    VariantSelector selector();

    /** Kotlin-lambda overload; AGP has both, so Java callers must pick the Action one explicitly. */
    void onVariants(VariantSelector selector, Function1<? super VariantT, Unit> callback);

    void onVariants(VariantSelector selector, Action<VariantT> callback);

    SdkComponents getSdkComponents();
}
