package mapping

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProGuardMapping obfuscates a javac-compiled fixture (testdata/src)
// with the real ProGuard and checks the parsed mapping against the class
// files of the input and output jars, read independently here.
//
// Needs java, javac and proguard on PATH (Debian: apt-get install -y
// proguard-cli, which is ProGuard 6.2.2). Without them the test is skipped,
// except on CI (CI=true), where it fails so the gap is noticed.
func TestProGuardMapping(t *testing.T) {
	if testing.Short() {
		t.Skip("runs javac and ProGuard; skipped with -short")
	}
	tools := findTools(t)
	dir := t.TempDir()

	inJar := filepath.Join(dir, "in.jar")
	compileFixture(t, tools, filepath.Join(dir, "classes"), inJar)
	// ProGuard needs the JDK's classes to know which methods override
	// library methods. Without them it still runs (with warnings off) and
	// writes a mapping consistent with its output, which is what is tested.
	libraryConfig := "-dontwarn\n-ignorewarnings"
	libJar := filepath.Join(dir, "java-base.jar")
	found, err := buildLibraryJar(tools.jdkHomes, libJar)
	require.NoError(t, err)
	if found {
		libraryConfig = "-libraryjars " + quote(libJar)
	} else {
		t.Logf("no java.base.jmod or rt.jar in %v: running ProGuard without library classes", tools.jdkHomes)
	}
	inClasses, err := readJarClasses(inJar)
	require.NoError(t, err)

	configs := []struct {
		name string
		// exact: without optimization, every obfuscated method is an input
		// method renamed, so look-ups can be checked against the input jar.
		exact bool
		extra string
	}{
		{"plain", true, "-dontoptimize\n"},
		{"optimized and repackaged", false, "-optimizationpasses 3\n-repackageclasses ''\n"},
	}
	for _, cfg := range configs {
		t.Run(cfg.name, func(t *testing.T) {
			t.Parallel()
			if !cfg.exact && !found {
				// ProGuard's optimizer fails without the library classes.
				skipOrFailOnCI(t, "optimizing needs the JDK's java.base classes (jmods/java.base.jmod or rt.jar)")
			}
			sub := t.TempDir()
			outJar := filepath.Join(sub, "out.jar")
			mapPath := filepath.Join(sub, "mapping.txt")
			runProGuard(t, tools, sub, strings.Join([]string{
				"-injars " + quote(inJar),
				"-outjars " + quote(outJar),
				libraryConfig,
				"-keep public class com.example.app.Main { public static void main(java.lang.String[]); }",
				"-keepattributes SourceFile,LineNumberTable",
				"-printmapping " + quote(mapPath),
				cfg.extra,
			}, "\n"))

			m, err := ParseFile(mapPath, nil)
			require.NoError(t, err)
			outClasses, err := readJarClasses(outJar)
			require.NoError(t, err)
			checkAgainstOutput(t, m, outClasses)
			if cfg.exact {
				checkAgainstInput(t, m, inClasses, outClasses)
			} else {
				// The point of this configuration: ProGuard wrote inline
				// frames, and none of them was taken for a method.
				assert.Positive(t, countInlineFrames(t, mapPath), "fixture should produce inline frames")
			}
		})
	}
}

// checkAgainstOutput checks the mapping against the obfuscated jar alone.
func checkAgainstOutput(t *testing.T, m *Mapping, out map[string]*jarClass) {
	overloads := 0
	for obf, c := range out {
		orig, ok := m.OriginalClass(obf)
		if !assert.True(t, ok, "class %s of the output jar is not in the mapping", obf) {
			continue
		}
		back, _ := m.ObfuscatedClass(orig)
		assert.Equal(t, obf, back)

		// Packages agree with the classes.
		origPkgs, ok := m.OriginalPackages(packageOf(obf))
		assert.True(t, ok)
		assert.Contains(t, origPkgs, packageOf(orig))
		obfPkgs, ok := m.ObfuscatedPackages(packageOf(orig))
		assert.True(t, ok)
		assert.Contains(t, obfPkgs, packageOf(obf))

		names := map[string]int{}
		for sig := range c.methods {
			names[sig.name]++
			name, desc, ok := m.OriginalMethod(obf, sig.name, sig.desc)
			if !assert.True(t, ok, "method %s.%s%s of the output jar is not in the mapping", obf, sig.name, sig.desc) {
				continue
			}
			obfName, obfDesc, ok := m.ObfuscatedMethod(orig, name, desc)
			assert.True(t, ok)
			assert.Equal(t, sig, signature{obfName, obfDesc}, "round trip of %s.%s%s via %s%s", obf, sig.name, sig.desc, name, desc)
		}
		for _, n := range names {
			if n > 1 {
				overloads++
			}
		}
	}
	assert.Positive(t, overloads, "fixture should produce overloads sharing an obfuscated name")

	// Every method the mapping gives a class exists in the obfuscated class:
	// inner inline frames and methods of other classes were left out.
	for _, c := range m.byObf {
		jc := out[c.obf]
		if !assert.NotNil(t, jc, "mapped class %s (%s) is not in the output jar", c.obf, c.orig) {
			continue
		}
		for _, mt := range c.methods {
			assert.True(t, jc.methods[mt.obf], "mapping gives %s (%s) method %s%s -> %s%s, not in the output jar",
				c.obf, c.orig, mt.orig.name, mt.orig.desc, mt.obf.name, mt.obf.desc)
		}
	}
}

// checkAgainstInput checks, for an unoptimized run, that the original side
// of the mapping is exactly the input jar.
func checkAgainstInput(t *testing.T, m *Mapping, in, out map[string]*jarClass) {
	kept := 0
	for orig, c := range in {
		obf, ok := m.ObfuscatedClass(orig)
		if !ok {
			assert.Nil(t, out[orig], "class %s is in the output but not in the mapping", orig)
			continue
		}
		kept++
		outClass := out[obf]
		require.NotNil(t, outClass, "mapping renames %s to %s, not in the output jar", orig, obf)
		for sig := range c.methods {
			name, desc, ok := m.ObfuscatedMethod(orig, sig.name, sig.desc)
			if !ok {
				// Not in the mapping: shrunk away, so nothing by that name.
				assert.False(t, outClass.methods[signature{name, desc}], "%s.%s%s kept but not mapped", orig, sig.name, sig.desc)
				continue
			}
			assert.True(t, outClass.methods[signature{name, desc}], "%s.%s%s -> %s%s not in %s", orig, sig.name, sig.desc, name, desc, obf)
		}
	}
	assert.Equal(t, len(out), kept, "output classes are the mapped input classes")
	for obf, c := range out {
		orig, _ := m.OriginalClass(obf)
		for sig := range c.methods {
			name, desc, _ := m.OriginalMethod(obf, sig.name, sig.desc)
			assert.True(t, in[orig].methods[signature{name, desc}], "%s.%s%s maps to %s.%s%s, not in the input jar", obf, sig.name, sig.desc, orig, name, desc)
		}
	}
}

// countInlineFrames counts method lines followed by a line with the same
// obfuscated range and name, read straight from the file.
func countInlineFrames(t *testing.T, path string) int {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	key := func(line string) string {
		left, obf, ok := strings.Cut(strings.TrimSpace(line), " -> ")
		if !ok || !strings.HasPrefix(line, " ") || left == "" || left[0] < '0' || left[0] > '9' {
			return ""
		}
		parts := strings.SplitN(left, ":", 3)
		if len(parts) < 3 {
			return ""
		}
		return parts[0] + ":" + parts[1] + " " + obf
	}
	count, prev := 0, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k := key(sc.Text())
		if k != "" && k == prev {
			count++
		}
		prev = k
	}
	require.NoError(t, sc.Err())
	return count
}

type javaTools struct {
	javac, proguard string
	// jdkHomes are the JDKs to take library classes from, in order of
	// preference: $JAVA_HOME, then the JDK of the javac on PATH.
	jdkHomes []string
}

func findTools(t *testing.T) javaTools {
	t.Helper()
	var missing []string
	look := func(name string) string {
		p, err := exec.LookPath(name)
		if err != nil {
			missing = append(missing, name)
		}
		return p
	}
	tools := javaTools{javac: look("javac"), proguard: look("proguard")}
	look("java")
	if len(missing) > 0 {
		skipOrFailOnCI(t, fmt.Sprintf("%s not on PATH (Debian: apt-get install -y openjdk-17-jdk-headless proguard-cli)", strings.Join(missing, ", ")))
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		tools.jdkHomes = append(tools.jdkHomes, home)
	}
	// /usr/bin/javac is a chain of symlinks into the JDK's bin.
	if real, err := filepath.EvalSymlinks(tools.javac); err == nil {
		tools.jdkHomes = append(tools.jdkHomes, filepath.Dir(filepath.Dir(real)))
	}
	return tools
}

// skipOrFailOnCI skips the test, except on CI where a missing tool must be
// noticed rather than silently skipped.
func skipOrFailOnCI(t *testing.T, reason string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(reason)
	}
	t.Skip(reason)
}

func compileFixture(t *testing.T, tools javaTools, classesDir, jarPath string) {
	t.Helper()
	var sources []string
	require.NoError(t, filepath.WalkDir(filepath.Join("testdata", "src"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			sources = append(sources, p)
		}
		return err
	}))
	require.NotEmpty(t, sources)
	// ProGuard 6.2.2 reads class files up to Java 13, so compile for 8.
	args := append([]string{"--release", "8", "-g", "-d", classesDir}, sources...)
	run(t, "", tools.javac, args...)
	require.NoError(t, zipDir(classesDir, jarPath))
}

func runProGuard(t *testing.T, tools javaTools, dir, config string) {
	t.Helper()
	configPath := filepath.Join(dir, "proguard.pro")
	require.NoError(t, os.WriteFile(configPath, []byte(config), 0o644))
	run(t, dir, tools.proguard, "@"+configPath)
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
}

// quote quotes a file name for a ProGuard configuration.
func quote(path string) string { return "'" + path + "'" }

// zipDir writes the files under dir into a new jar at jarPath.
func zipDir(dir, jarPath string) error {
	out, err := os.Create(jarPath)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(out)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		return addStored(zw, filepath.ToSlash(rel), data)
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// addStored adds an uncompressed entry with its sizes in the local header:
// ProGuard 6 rejects stored entries that use a trailing data descriptor,
// which zip.Writer.Create would write.
func addStored(zw *zip.Writer, name string, data []byte) error {
	w, err := zw.CreateRaw(&zip.FileHeader{
		Name:               name,
		Method:             zip.Store,
		CRC32:              crc32.ChecksumIEEE(data),
		CompressedSize64:   uint64(len(data)),
		UncompressedSize64: uint64(len(data)),
	})
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// buildLibraryJar writes a jar of the JDK's java.base classes that ProGuard
// 6 can read as -libraryjars, from the first of jdkHomes that has them, and
// reports whether one had. A JDK 9+ ships them in jmods/java.base.jmod (a
// zip after a 4-byte "JM" header, classes under classes/), with class file
// versions ProGuard 6 refuses; they are only read for the class hierarchy,
// so the major version is rewritten to 52 (Java 8). A Java 8 JDK's rt.jar
// is used as is.
func buildLibraryJar(jdkHomes []string, jarPath string) (bool, error) {
	for _, home := range jdkHomes {
		for _, rt := range []string{"jre/lib/rt.jar", "lib/rt.jar"} {
			if _, err := os.Stat(filepath.Join(home, rt)); err == nil {
				return true, os.Symlink(filepath.Join(home, rt), jarPath)
			}
		}
		jmod := filepath.Join(home, "jmods", "java.base.jmod")
		if _, err := os.Stat(jmod); err == nil {
			return true, patchJmod(jmod, jarPath)
		}
	}
	return false, nil
}

func patchJmod(jmodPath, jarPath string) error {
	f, err := os.Open(jmodPath)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	const headerSize = 4
	zr, err := zip.NewReader(io.NewSectionReader(f, headerSize, st.Size()-headerSize), st.Size()-headerSize)
	if err != nil {
		return fmt.Errorf("%s: %w", jmodPath, err)
	}
	out, err := os.Create(jarPath)
	if err != nil {
		return err
	}
	defer out.Close()
	zw := zip.NewWriter(out)
	for _, e := range zr.File {
		name, ok := strings.CutPrefix(e.Name, "classes/")
		if !ok || !strings.HasSuffix(name, ".class") || name == "module-info.class" {
			continue
		}
		rc, err := e.Open()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", jmodPath, e.Name, err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", jmodPath, e.Name, err)
		}
		if len(data) < 8 || binary.BigEndian.Uint32(data) != 0xCAFEBABE {
			return fmt.Errorf("%s: %s: not a class file", jmodPath, e.Name)
		}
		binary.BigEndian.PutUint16(data[6:8], 52)
		if err := addStored(zw, name, data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return out.Close()
}
