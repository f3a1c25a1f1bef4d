package tracebeat.standin.agp;

import com.android.build.api.artifact.Artifacts;
import com.android.build.api.variant.ScopedArtifacts;
import com.android.build.api.variant.Variant;

/** A variant named after its build type (no flavors). */
public class FakeVariant implements Variant {
    private final String name;
    private final FakeArtifacts artifacts = new FakeArtifacts();

    FakeVariant(String name) {
        this.name = name;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getBuildType() {
        return name;
    }

    @Override
    public String getFlavorName() {
        return "";
    }

    @Override
    public Artifacts getArtifacts() {
        return artifacts;
    }

    FakeArtifacts getFakeArtifacts() {
        return artifacts;
    }

    static final class FakeArtifacts implements Artifacts {
        private final FakeScopedArtifacts all = new FakeScopedArtifacts();

        @Override
        public ScopedArtifacts forScope(ScopedArtifacts.Scope scope) {
            if (scope != ScopedArtifacts.Scope.ALL) {
                throw new UnsupportedOperationException("the stand-in implements scope ALL only, got " + scope);
            }
            return all;
        }

        FakeScopedArtifacts allScope() {
            return all;
        }
    }
}
