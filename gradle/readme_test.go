package gradle

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// readmeRepository is the placeholder the READMEs give for the Maven
// repository a release is served from; the test puts the release there.
const readmeRepository = "https://maven.example.com/tracebeat"

// gradleSnippet is the settings.gradle and build.gradle a README shows.
type gradleSnippet struct {
	readme, settings, build string
}

var groovyBlock = regexp.MustCompile("(?s)```groovy\n(.*?)```")

// readmeSnippets reads the groovy blocks of a README and splits them into
// the files their comment lines name ("// settings.gradle...",
// "// build.gradle..."), as a user copies them.
func readmeSnippets(t *testing.T, readme string) gradleSnippet {
	t.Helper()
	data, err := os.ReadFile(readme)
	require.NoError(t, err)
	s := gradleSnippet{readme: readme}
	var current *string
	for _, m := range groovyBlock.FindAllStringSubmatch(string(data), -1) {
		for _, line := range strings.SplitAfter(m[1], "\n") {
			switch {
			case strings.HasPrefix(line, "// settings.gradle"):
				current = &s.settings
			case strings.HasPrefix(line, "// build.gradle"):
				current = &s.build
			}
			if current == nil {
				t.Fatalf("%s: a groovy block starts without a \"// settings.gradle\" or \"// build.gradle\" line naming its file", readme)
			}
			*current += line
		}
	}
	require.NotEmpty(t, s.settings, "%s shows no settings.gradle", readme)
	require.NotEmpty(t, s.build, "%s shows no build.gradle", readme)
	return s
}

// testReadmeSnippets pastes the Gradle snippets of README.md and
// gradle/README.md, as they are but for the repository placeholder, into a
// fresh Android project: the snippets are its settings.gradle and its app
// module's build.gradle; the root build.gradle puts AGP on the classpath,
// as every Android project's does (here the stand-in, AGP cannot be had);
// no block list or base map exists; the Gradle user home is new. The build
// must pass and write the maps, warning that the block list and base map
// are not there yet.
func testReadmeSnippets(t *testing.T, gradleBin, repo, noPath string) {
	jars := buildPluginJars(t, gradleBin)
	root := javatest.RepoRoot(t)
	repoURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(repo)}).String()
	for _, readme := range []string{filepath.Join(root, "README.md"), filepath.Join(root, "gradle", "README.md")} {
		name := strings.TrimPrefix(filepath.ToSlash(strings.TrimPrefix(readme, root)), "/")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := readmeSnippets(t, readme)
			for _, text := range []string{s.settings, s.build} {
				require.Contains(t, text, readmeRepository, "the snippet names the release's repository by its placeholder")
			}
			require.Contains(t, s.build, fmt.Sprintf("id 'com.github.tracebeat' version '%s'", tracebeat.Version()),
				"the snippet names the version in VERSION")

			project := filepath.Join(t.TempDir(), "fresh-app")
			app := filepath.Join(project, "app")
			standin := filepath.Join(root, "testdata", "gradle", "android-standin", "app")
			for _, dir := range []string{"sdk", "lib", "src"} {
				copyTree(t, filepath.Join(standin, dir), filepath.Join(app, dir))
			}
			settings := strings.ReplaceAll(s.settings, readmeRepository, repoURL) + "\nrootProject.name = 'fresh-app'\ninclude 'app'\n"
			writeFile(t, filepath.Join(project, "settings.gradle"), settings)
			writeFile(t, filepath.Join(app, "build.gradle"), strings.ReplaceAll(s.build, readmeRepository, repoURL))
			agp := []string{filepath.ToSlash(jars.agpAPI), filepath.ToSlash(jars.fakeAGP)}
			writeFile(t, filepath.Join(project, "build.gradle"), fmt.Sprintf(
				"// AGP on the build's classpath, as an Android project's root build has it (the stand-in here).\n"+
					"buildscript { dependencies { classpath files('%s') } }\n", strings.Join(agp, "', '")))

			r := runGradleEnv(t, gradleBin, filepath.Join(t.TempDir(), "gradle-home"), project, []string{noPath}, "assemble")
			require.NoError(t, r.err, "the README's snippet, pasted into a fresh project:\n--- settings.gradle\n%s\n--- app/build.gradle\n%s\n--- output\n%s",
				settings, s.build, r.output)
			require.Contains(t, r.output, "no block list at ")
			require.Contains(t, r.output, "no base map at ")
			require.FileExists(t, filepath.Join(app, "build", "outputs", "tracebeat", "release", "methodMapping.txt"))
			require.NoFileExists(t, filepath.Join(app, "tracebeat", "blackMethodList.txt"), "the build writes no block list")
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}
