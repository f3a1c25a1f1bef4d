package release

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tracebeat/tracebeat/internal/jarpack"
)

// GradleAPIClasspath lists the jars to compile the plugin against: lib/ and
// lib/plugins/ of the Gradle installation that gradleBin runs, plus Groovy
// and SLF4J, which Debian's package keeps in /usr/share/java instead.
func GradleAPIClasspath(gradleBin string) ([]string, error) {
	resolved, err := filepath.EvalSymlinks(gradleBin)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", gradleBin, err)
	}
	home := filepath.Dir(filepath.Dir(resolved)) // <home>/bin/gradle
	var jars []string
	for _, dir := range []string{filepath.Join(home, "lib"), filepath.Join(home, "lib", "plugins")} {
		found, err := filepath.Glob(filepath.Join(dir, "*.jar"))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", dir, err)
		}
		jars = append(jars, found...)
	}
	if len(jars) == 0 {
		return nil, fmt.Errorf("no jars under %s/lib: cannot tell where the Gradle API of %s is", home, resolved)
	}
	for _, need := range []struct {
		prefix     string   // base-name prefix of the jar in lib/
		debianJars []string // where Debian keeps it instead
	}{
		{"groovy", []string{"/usr/share/java/groovy-all.jar", "/usr/share/java/groovy.jar"}},
		{"slf4j-api", []string{"/usr/share/java/slf4j-api.jar"}},
	} {
		if hasJar(jars, need.prefix) {
			continue
		}
		found := false
		for _, p := range need.debianJars {
			if _, err := os.Stat(p); err == nil {
				jars = append(jars, p)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("no %s jar in %s/lib nor at %v: cannot compile against the Gradle API", need.prefix, home, need.debianJars)
		}
	}
	sort.Strings(jars)
	return jars, nil
}

func hasJar(jars []string, prefix string) bool {
	for _, j := range jars {
		if strings.HasPrefix(filepath.Base(j), prefix) {
			return true
		}
	}
	return false
}

// CompilePlugin compiles the plugin's sources (gradle/src/main/java under
// root) with javac --release 8 against gradleClasspath into dir. The
// Android Gradle Plugin's API is compiled against the signature stand-ins
// of testdata/gradle/android-standin/agp-api (AGP cannot be downloaded
// here; gradle/README.md says what that leaves unproven); they are compiled
// into a directory of their own, never packed with the plugin.
func CompilePlugin(root string, gradleClasspath []string, dir string) error {
	agpDir, err := os.MkdirTemp("", "tracebeat-agp-api-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(agpDir)
	if err := javac(filepath.Join(root, "testdata", "gradle", "android-standin", "agp-api"), gradleClasspath, agpDir); err != nil {
		return fmt.Errorf("the AGP API stand-ins: %w", err)
	}
	if err := javac(filepath.Join(root, "gradle", "src", "main", "java"), append(slices.Clone(gradleClasspath), agpDir), dir); err != nil {
		return fmt.Errorf("the Gradle plugin: %w", err)
	}
	return nil
}

// javac compiles the sources below srcDir for Java 8 into dir.
func javac(srcDir string, classpath []string, dir string) error {
	var sources []string
	err := filepath.WalkDir(srcDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			sources = append(sources, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	sort.Strings(sources)
	args := append([]string{"--release", "8", "-nowarn", "-d", dir, "-cp", strings.Join(classpath, string(os.PathListSeparator))}, sources...)
	if msg, err := exec.Command("javac", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("javac: %v\n%s", err, msg)
	}
	return nil
}

// PluginResources are the files of gradle/src/main/resources, by jar entry
// name.
func PluginResources(root string) (map[string][]byte, error) {
	return jarpack.ReadTree(filepath.Join(root, "gradle", "src", "main", "resources"), func(string) bool { return true })
}

// ClassFiles reads the class files below dir (javac's output).
func ClassFiles(dir string) (map[string][]byte, error) {
	return jarpack.ReadTree(dir, func(name string) bool { return strings.HasSuffix(name, ".class") })
}
