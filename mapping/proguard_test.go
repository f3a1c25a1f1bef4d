package mapping

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/proguardtest"
)

// TestProGuardMapping obfuscates a javac-compiled fixture (testdata/src)
// with the real ProGuard and checks the parsed mapping against the class
// files of the input and output jars, read independently here.
//
// Needs java, javac and proguard on PATH (Debian: apt-get install -y
// proguard-cli, which is ProGuard 6.2.2) and the JDK's jmods. Without them
// the test is skipped, except on CI (CI=true), where it fails so the gap is
// noticed.
func TestProGuardMapping(t *testing.T) {
	if testing.Short() {
		t.Skip("runs javac and ProGuard; skipped with -short")
	}
	proguardtest.Require(t)
	// ProGuard 6.2.2 reads class files up to Java 13, so compile for 8.
	inJar := javatest.Jar(t, javatest.Javac(t, javatest.Options{Release: 8, Debug: true}, filepath.Join("testdata", "src")))
	// ProGuard needs the JDK's classes to know which methods override
	// library methods; its optimizer fails without them.
	libJar := proguardtest.LibraryJar(t)
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
			sub := t.TempDir()
			outJar := filepath.Join(sub, "out.jar")
			mapPath := filepath.Join(sub, "mapping.txt")
			proguardtest.Run(t, sub,
				"-injars "+proguardtest.Quote(inJar),
				"-outjars "+proguardtest.Quote(outJar),
				"-libraryjars "+proguardtest.Quote(libJar),
				"-keep public class com.example.app.Main { public static void main(java.lang.String[]); }",
				"-keepattributes SourceFile,LineNumberTable",
				"-printmapping "+proguardtest.Quote(mapPath),
				cfg.extra)

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
