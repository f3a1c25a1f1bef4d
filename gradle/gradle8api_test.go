package gradle

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// apiIndex holds the classes of a Gradle API (its jars), to answer whether
// a class or member the plugin names exists there.
type apiIndex struct {
	classes map[string]*classfile.Class
}

func loadAPI(t *testing.T, jars ...string) apiIndex {
	t.Helper()
	idx := apiIndex{classes: map[string]*classfile.Class{}}
	for _, jar := range jars {
		zr, err := zip.OpenReader(jar)
		if err != nil {
			t.Fatalf("%s: %v", jar, err)
		}
		for _, f := range zr.File {
			if !strings.HasSuffix(f.Name, ".class") || strings.HasPrefix(f.Name, "META-INF/") {
				continue
			}
			name := strings.TrimSuffix(f.Name, ".class")
			if _, seen := idx.classes[name]; seen {
				continue // the first jar wins, as on a class path
			}
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			c, err := classfile.Parse(data)
			if err != nil {
				t.Fatalf("%s!%s: %v", jar, f.Name, err)
			}
			idx.classes[name] = c
		}
		zr.Close()
	}
	return idx
}

// has tells whether the class exists and, for a member, whether it or a
// supertype in the API declares it; found is where, deprecated whether
// that declaration or its class is marked @Deprecated.
func (a apiIndex) has(ref classfile.MemberRef) (found string, deprecated bool) {
	seen := map[string]bool{}
	var walk func(name string) (string, bool)
	walk = func(name string) (string, bool) {
		c, ok := a.classes[name]
		if !ok || seen[name] {
			return "", false
		}
		seen[name] = true
		members := c.Methods
		if ref.Tag == classfile.TagFieldref {
			members = c.Fields
		}
		for _, m := range members {
			n, _ := c.Pool.Utf8(m.Name)
			d, _ := c.Pool.Utf8(m.Descriptor)
			if n == ref.Name && d == ref.Descriptor {
				return name, isDeprecated(c, m.Attributes) || isDeprecated(c, c.Attributes)
			}
		}
		supers := append([]uint16{}, c.Interfaces...)
		if c.SuperClass != 0 {
			supers = append([]uint16{c.SuperClass}, supers...)
		}
		for _, s := range supers {
			sn, _ := c.Pool.ClassName(s)
			if where, dep := walk(sn); where != "" {
				return where, dep
			}
		}
		return "", false
	}
	if ref.Name == "" { // a class reference
		c, ok := a.classes[ref.Class]
		if !ok {
			return "", false
		}
		return ref.Class, isDeprecated(c, c.Attributes)
	}
	return walk(ref.Class)
}

// isDeprecated: a Deprecated attribute, or a runtime-visible annotation
// naming java/lang/Deprecated (the attribute's bytes name its pool index).
func isDeprecated(c *classfile.Class, attrs []classfile.Attribute) bool {
	for _, at := range attrs {
		name, _ := c.Pool.Utf8(at.Name)
		switch name {
		case "Deprecated":
			return true
		case "RuntimeVisibleAnnotations":
			for i := 0; i+1 < len(at.Data); i++ {
				idx := binary.BigEndian.Uint16(at.Data[i:])
				if c.Pool.Tag(idx) == classfile.TagUtf8 {
					if s, _ := c.Pool.Utf8(idx); s == "Ljava/lang/Deprecated;" {
						return true
					}
				}
			}
		}
	}
	return false
}

var annotationType = regexp.MustCompile(`^Lorg/gradle/[\w/$]+;$`)

// gradleRefs lists the Gradle classes and members the plugin's class files
// name, with the plugin classes that name each.
func gradleRefs(t *testing.T, pluginJar string) map[classfile.MemberRef][]string {
	t.Helper()
	refs := map[classfile.MemberRef][]string{}
	for name, data := range javatest.ClassFiles(t, pluginJar) {
		if !strings.HasSuffix(name, ".class") {
			continue
		}
		c, err := classfile.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		user := strings.TrimSuffix(filepath.Base(name), ".class")
		for i := 1; i < c.Pool.Count(); i++ {
			var ref classfile.MemberRef
			switch c.Pool.Tag(uint16(i)) {
			case classfile.TagClass:
				n, err := c.Pool.ClassName(uint16(i))
				if err != nil {
					continue
				}
				ref = classfile.MemberRef{Class: strings.TrimLeft(n, "[")}
				ref.Class = strings.TrimSuffix(strings.TrimPrefix(ref.Class, "L"), ";")
			case classfile.TagUtf8:
				// Annotation types (@CacheableTask, @InputFile, ...) are
				// named by descriptor only.
				u, _ := c.Pool.Utf8(uint16(i))
				if !annotationType.MatchString(u) {
					continue
				}
				ref = classfile.MemberRef{Class: strings.TrimSuffix(strings.TrimPrefix(u, "L"), ";")}
			case classfile.TagFieldref, classfile.TagMethodref, classfile.TagInterfaceMethodref:
				r, err := c.Pool.Ref(uint16(i))
				if err != nil {
					continue
				}
				ref = r
			default:
				continue
			}
			if strings.HasPrefix(ref.Class, "org/gradle/") {
				refs[ref] = append(refs[ref], user)
			}
		}
	}
	return refs
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
		in8, dep8 := gradle8.has(r)
		in4, _ := gradle4.has(r)
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
