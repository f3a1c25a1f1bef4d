package gradle

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/classfile/apiref"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

var annotationType = regexp.MustCompile(`^Lorg/gradle/[\w/$]+;$`)

// gradleRefs lists the Gradle classes and members the plugin's class files
// name, with the plugin classes that name each.
func gradleRefs(t *testing.T, pluginJar string) map[classfile.MemberRef][]string {
	t.Helper()
	refs, err := apiref.Refs(javatest.ClassFiles(t, pluginJar),
		func(class string) bool { return strings.HasPrefix(class, "org/gradle/") }, annotationType.MatchString)
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

// loadAPI is apiref.Load, failing the test on an error.
func loadAPI(t *testing.T, jars ...string) *apiref.Index {
	t.Helper()
	idx, err := apiref.Load(jars...)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// agpOnly are the plugin classes loaded only when AGP is applied, which
// needs Gradle 8: what they name need not exist in Gradle 4.4.
func agpOnly(users []string) bool {
	for _, u := range users {
		if !strings.HasPrefix(u, "AndroidWiring") && !strings.HasPrefix(u, "TaskRegistration") {
			return false
		}
	}
	return true
}

// TestGradle8API: the plugin compiles against Gradle 8's API
// (dev.gradleplugins:gradle-api 8.11.1, which scripts/android-check.sh
// fetches and names in TRACEBEAT_GRADLE8_API), and every Gradle class and
// member the plugin's class files name (as the release compiles them,
// against Debian's Gradle 4.4.1) exists in Gradle 8's API and in Gradle
// 4.4.1's, but those named only by the classes AGP alone loads, which must
// exist in Gradle 8. Members Gradle 8 marks @Deprecated are listed.
func TestGradle8API(t *testing.T) {
	api8 := os.Getenv("TRACEBEAT_GRADLE8_API")
	if api8 == "" {
		t.Skip("needs Gradle 8's API jar: scripts/android-check.sh fetches it")
	}
	gradleBin := requireGradle(t)
	jars := buildPluginJars(t, gradleBin)
	root := javatest.RepoRoot(t)

	// The plugin's sources compile against Gradle 8's API (Groovy beside
	// it, as the API's signatures name Closure) and the AGP signatures.
	groovy, _ := filepath.Glob(filepath.Join(filepath.Dir(api8), "groovy-3*.jar"))
	javatest.Javac(t, javatest.Options{Release: 8, Classpath: append(append([]string{api8}, groovy...), jars.agpAPI)},
		filepath.Join(root, "gradle", "src", "main", "java"))

	// java.base beside each API: a Gradle type may inherit a member from
	// the JDK (RepositoryHandler is a java.util.List).
	jdk := filepath.Join(t.TempDir(), "java-base.jar")
	gen := exec.Command("go", "run", "./internal/tools/jdklib", "-o", jdk)
	gen.Dir = root
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("jdklib: %v\n%s", err, out)
	}
	gradle8 := loadAPI(t, api8, jdk)
	gradle4 := loadAPI(t, append(gradleAPIClasspath(t, gradleBin), jdk)...)
	refs := gradleRefs(t, jars.plugin)
	keys := make([]classfile.MemberRef, 0, len(refs))
	for r := range refs {
		keys = append(keys, r)
	}
	sort.Slice(keys, func(i, j int) bool {
		return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j])
	})
	missing, deprecated := 0, 0
	var lines bytes.Buffer
	for _, r := range keys {
		users := refs[r]
		sort.Strings(users)
		in8, dep8 := gradle8.Has(r)
		in4, _ := gradle4.Has(r)
		what := strings.ReplaceAll(r.Class, "/", ".")
		if r.Name != "" {
			what += "." + r.Name + r.Descriptor
		}
		need4 := !agpOnly(users)
		status := "ok"
		switch {
		case in8 == "":
			status = "MISSING in Gradle 8"
		case need4 && in4 == "":
			status = "MISSING in Gradle 4.4.1"
		case in4 == "":
			status = "ok (Gradle 8 only: named by the classes AGP loads)"
		}
		if strings.HasPrefix(status, "MISSING") {
			missing++
		}
		if dep8 {
			deprecated++
			status += ", @Deprecated in Gradle 8"
		}
		fmt.Fprintf(&lines, "gradle8-api: %s  [%s]  %s\n", what, strings.Join(users, ","), status)
	}
	for _, l := range strings.Split(strings.TrimSpace(lines.String()), "\n") {
		t.Log(l)
	}
	t.Logf("gradle8-api: refs=%d missing=%d deprecated=%d", len(keys), missing, deprecated)
	if missing > 0 {
		t.Errorf("%d Gradle classes or members the plugin names are missing", missing)
	}
}
