package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/proguardtest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// integCommonsLang3 is Debian's libcommons-lang3-java (class files of version 52).
const integCommonsLang3 = "/usr/share/java/commons-lang3.jar"

// integAccBridge is the one access flag ProGuard 6 changes: it clears ACC_BRIDGE
// on the bridge methods it renames, so an obfuscated jar's map differs from
// the plain jar's map in that bit only.
const integAccBridge = 0x0040

// TestProGuardObfuscatedJars runs the real ProGuard over the demo app and
// Debian's commons-lang3, then instruments each obfuscated jar with its
// mapping.txt and the plain jar with the same options.
//
// ProGuard runs with -dontshrink -dontoptimize: it renames classes, fields
// and methods but keeps every method and its code, so both jars hold the
// same methods and the traced sets must agree exactly. (Shrinking would
// drop unused methods and optimizing would inline, merge and change code,
// so counts would then legitimately differ.) With no -keep option almost
// everything is renamed; methods overriding library methods keep their
// names, which is why the JDK's classes are given as -libraryjars.
//
// Proven here, per jar:
//   - every methodMapping.txt entry names a method that exists under that
//     name and descriptor in the un-obfuscated jar;
//   - the obfuscated and the plain run trace the same methods with the same
//     ids (so the same number), ignore the same methods (identical
//     ignoreMethodMapping.txt) and agree on every summary count;
//   - "check --jar --mapping" finds the obfuscated instrumented jar clean,
//     and without the mapping it does not (the names differ);
//   - HotSpot verifies every class of the instrumented obfuscated jar.
func TestProGuardObfuscatedJars(t *testing.T) {
	if testing.Short() {
		t.Skip("runs javac, ProGuard and HotSpot; skipped with -short")
	}
	proguardtest.Require(t)
	if _, err := os.Stat(integCommonsLang3); err != nil {
		proguardtest.SkipOrFailOnCI(t, integCommonsLang3+" missing (Debian: apt-get install -y libcommons-lang3-java)")
	}
	lib := proguardtest.LibraryJar(t)
	app := integBuildDemo(t)
	runtimeJar := integBeatRuntimeJar(t)

	tests := []struct {
		name string
		jar  string
		// libs are further library jars: ProGuard -libraryjars, tracebeat
		// --classpath, and on the verifier's class path.
		libs []string
		// extra ProGuard options
		extra []string
		// wantFocus: the jar has Activities, so focus calls must be added.
		wantFocus bool
	}{
		{name: "demo app", jar: app.jar, libs: []string{app.stubJar}, wantFocus: true},
		// AbstractCircuitBreaker uses java.beans (module java.desktop), which
		// the java.base library jar lacks; nothing implements those
		// interfaces, so no renaming depends on them.
		{name: "commons-lang3", jar: integCommonsLang3, extra: []string{"-dontwarn java.beans.**"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			plain := integCopy(t, tc.jar, filepath.Join(dir, "in"), "app.jar")
			obf := filepath.Join(dir, "app-obf.jar")
			mappingTxt := filepath.Join(dir, "mapping.txt")
			config := []string{
				"-injars " + proguardtest.Quote(plain),
				"-outjars " + proguardtest.Quote(obf),
				"-libraryjars " + proguardtest.Quote(lib),
				"-dontshrink",
				"-dontoptimize",
				"-dontnote",
				"-printmapping " + proguardtest.Quote(mappingTxt),
			}
			common := []string{"instrument", "--workers", "2"}
			for _, l := range tc.libs {
				config = append(config, "-libraryjars "+proguardtest.Quote(l))
				common = append(common, "--classpath", l)
			}
			proguardtest.Run(t, dir, append(config, tc.extra...)...)

			outObf, outPlain := filepath.Join(dir, "out-obf"), filepath.Join(dir, "out-plain")
			obfRun := integMustRun(t, append(common, "--mapping", mappingTxt, "-o", outObf, obf)...)
			plainRun := integMustRun(t, append(common, "-o", outPlain, plain)...)
			obfMap, _ := integReadMap(t, filepath.Join(outObf, "methodMapping.txt"))
			plainMap, _ := integReadMap(t, filepath.Join(outPlain, "methodMapping.txt"))

			plainMethods := integMethodsOf(t, plain)
			integRequireObfuscated(t, plainMethods, integMethodsOf(t, obf))

			// Every entry names a method of the plain jar.
			for _, e := range obfMap.Entries {
				if e.ID == methodmap.DispatchID {
					continue
				}
				_, ok := plainMethods[e.Key]
				assert.True(t, ok, "map line %d: %s is not a method of the un-obfuscated jar", e.Line, e.Key)
			}

			// The same methods with the same ids; access differs at most in
			// ACC_BRIDGE, which ProGuard clears.
			obfCounts, plainCounts := integSummaryCounts(t, obfRun.stdout), integSummaryCounts(t, plainRun.stdout)
			assert.Equal(t, plainCounts, obfCounts, "summary counts")
			assert.Positive(t, obfCounts["traced"])
			assert.Equal(t, integIDs(plainMap), integIDs(obfMap), "traced methods and ids")
			assert.Equal(t, len(plainMap.Entries), len(obfMap.Entries))
			plainAccess := map[methodmap.MethodKey]uint16{}
			for _, e := range plainMap.Entries {
				plainAccess[e.Key] = e.Access
			}
			for _, e := range obfMap.Entries {
				diff := e.Access ^ plainAccess[e.Key]
				assert.Zero(t, diff&^integAccBridge, "%s: access %d, plain jar %d", e.Key, e.Access, plainAccess[e.Key])
			}
			obfIgnored, err := os.ReadFile(filepath.Join(outObf, "ignoreMethodMapping.txt"))
			require.NoError(t, err)
			plainIgnored, err := os.ReadFile(filepath.Join(outPlain, "ignoreMethodMapping.txt"))
			require.NoError(t, err)
			assert.Equal(t, string(plainIgnored), string(obfIgnored), "ignoreMethodMapping.txt")
			if tc.wantFocus {
				assert.Positive(t, obfCounts["focus"])
			}

			// The jar check needs the mapping to see the map's names.
			instrumentedObf := filepath.Join(outObf, filepath.Base(obf))
			mapObf := filepath.Join(outObf, "methodMapping.txt")
			ok := integMustRun(t, "check", "--map", mapObf, "--jar", instrumentedObf, "--mapping="+mappingTxt)
			assert.Contains(t, ok.stdout, "violations=0")
			noMapping := integTool("check", "--map", mapObf, "--jar", instrumentedObf)
			assert.Equal(t, exitFailure, noMapping.code, noMapping.stdout)
			assert.Contains(t, noMapping.stdout, "is instrumented with id")
			integMustRun(t, "check", "--map", filepath.Join(outPlain, "methodMapping.txt"), "--jar", filepath.Join(outPlain, "app.jar"))

			javatest.RequireVerified(t, instrumentedObf, append([]string{runtimeJar}, tc.libs...)...)
		})
	}
}

// integMethodsOf lists the methods with code of a jar by name and descriptor.
func integMethodsOf(t *testing.T, jar string) map[methodmap.MethodKey]uint16 {
	t.Helper()
	scanned, err := scan.ScanInstrumented(jar, rewrite.DefaultRuntime())
	require.NoError(t, err)
	out := map[methodmap.MethodKey]uint16{}
	for _, m := range scanned {
		out[methodmap.MethodKey{Class: m.Class, Name: m.Name, Desc: m.Desc}] = m.Access
	}
	return out
}

// integRequireObfuscated makes sure ProGuard really renamed things: most
// classes of the obfuscated jar are not classes of the plain jar.
func integRequireObfuscated(t *testing.T, plain, obf map[methodmap.MethodKey]uint16) {
	t.Helper()
	classes := func(ms map[methodmap.MethodKey]uint16) map[string]bool {
		c := map[string]bool{}
		for k := range ms {
			c[k.Class] = true
		}
		return c
	}
	plainClasses, obfClasses := classes(plain), classes(obf)
	renamed := 0
	for c := range obfClasses {
		if !plainClasses[c] {
			renamed++
		}
	}
	require.Greater(t, renamed, len(obfClasses)/2, "ProGuard renamed only %d of %d classes", renamed, len(obfClasses))
}

// integBeatRuntimeJar is the counting AppMethodBeat stub alone, without the
// stub's own android.app.Activity (the demo brings its own).
func integBeatRuntimeJar(t *testing.T) string {
	t.Helper()
	entries := map[string][]byte{}
	for name, data := range javatest.ClassFiles(t, javatest.BeatStub(t)) {
		if strings.HasPrefix(name, "com/tencent/") {
			entries[name] = data
		}
	}
	require.NotEmpty(t, entries)
	return javatest.WriteJar(t, entries)
}
