package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// TestInstrumentCacheKeepsIds runs `instrument --cache` three times: the
// second run after the output directory was wiped must reuse the jar and
// write the same map; the third, with a new input whose methods sort
// before all others, must keep every id of the first map (without the
// kept base map they would all move up).
func TestInstrumentCacheKeepsIds(t *testing.T) {
	jar := insFixtureJar(t)
	dir := t.TempDir()
	cache, out := filepath.Join(dir, "cache"), filepath.Join(dir, "out")
	mapPath := filepath.Join(out, "methodMapping.txt")

	code, _, stderr := runCLI("instrument", "--cache", cache, "-o", out, jar)
	require.Equal(t, exitOK, code, stderr)
	first, err := os.ReadFile(mapPath)
	require.NoError(t, err)

	require.NoError(t, os.RemoveAll(out))
	code, stdout, stderr := runCLI("instrument", "--cache", cache, "-o", out, jar)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "cache:      1 input reused whole")
	again, err := os.ReadFile(mapPath)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(again))

	src := writeTestFile(t, t.TempDir(), "aaa/First.java", "package aaa; public class First { int f(int x) { return x * g(x); } int g(int x) { return x + 7; } }")
	extra := javatest.Jar(t, javatest.Javac(t, javatest.Options{}, filepath.Dir(src)))
	require.NoError(t, os.Rename(extra, filepath.Join(dir, "aaa.jar")))
	code, _, stderr = runCLI("instrument", "--cache", cache, "-o", out, filepath.Join(dir, "aaa.jar"), jar)
	require.Equal(t, exitOK, code, stderr)
	before, err := methodmap.ParseMap(bytes.NewReader(first), "first map")
	require.NoError(t, err)
	after, err := methodmap.ReadMapFile(mapPath)
	require.NoError(t, err)
	ids := map[methodmap.MethodKey]int{}
	for _, e := range after.Entries {
		ids[e.Key] = e.ID
	}
	for _, e := range before.Entries {
		assert.Equal(t, e.ID, ids[e.Key], "%s moved", e.Key)
	}
	assert.Greater(t, len(after.Entries), len(before.Entries), "the new class's methods are in the map")
}

// TestDeltaRunIsAFullRun changes one class of one jar between runs with
// --cache. A run that patches the last result (a delta run) must write
// what a run without the cache writes with the kept map as its base map:
// the same jars, maps and counts, byte for byte. When the change touches
// the class hierarchy or a class found in two jars, the run plans every
// method again, with the same result. The changed jar carries a resource
// of about 5 MB, and its change makes the jar smaller than the last
// output (an output written over a larger old file must end where the
// new jar ends). An unchanged jar follows the app's input.
func TestDeltaRunIsAFullRun(t *testing.T) {
	const base = "package app; public class Base { public int v; public int get() { return v; } public void work(int n) { for (int i = 0; i < n; i++) v += i * 3; } public int calc(int x) { return x * 3 + get(); } }"
	const main = "package app; public class Main extends Base { public int run(int x) { return x * 2 + helper(x); } int helper(int x) { return x - 1 > 3 ? x : -x; } static native void nat(); public static int s(int a) { return a * a - 3; } }"
	const mainChanged = "package app; public class Main extends Base { public int run(int x) { return x * 5 + extra(x); } int extra(int y) { return y * y + s(y); } static native void nat(); public static int s(int a) { return a * a - 4; } }"
	const lib = "package lib; public class Util { public static long mix(long a, long b) { return a * 31 + b ^ (a >>> 7); } public String name() { return \"u\" + mix(1, 2); } }"
	// Shape has nothing to trace: the app's class it is comes out as it
	// went in (compressed, when from a class directory into a merged jar).
	const shape = "package app; public interface Shape { int area(); }"
	// tail.jar comes after the app and never changes: in a merged jar its
	// entries move when the app's change makes them smaller (and are
	// copied from the last output).
	const tail = "package tail; public class End { public static int twice(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return 2 * s; } }"
	// lib also carries a copy of app.Base: a class in two inputs.
	cases := []struct {
		name, file, source string
		delta              bool
		damage             bool // the bodies in the cache are damaged before the change
		sameMaps           bool // the maps are the last run's (bodies changed only)
	}{
		{"method bodies changed", "app/Main.java",
			"package app; public class Main extends Base { public int run(int x) { return x * 7 + helper(x); } int helper(int x) { return x + 1 > 4 ? x : -x; } static native void nat(); public static int s(int a) { return a * a + 5; } }",
			true, false, true},
		{"method body changed, one added, one removed", "app/Main.java",
			mainChanged, true, false, false},
		{"the same with the cached bodies damaged", "app/Main.java",
			mainChanged, true, true, false},
		// Every traced method gone (getters and natives only): the changed
		// class has nothing to rewrite, and the patch must say so.
		{"no method left to trace", "app/Main.java",
			"package app; public class Main extends Base { public int w; public int getW() { return w; } static native void nat(); }",
			true, false, false},
		{"superclass changed", "app/Main.java",
			"package app; public class Main { public int run(int x) { return x * 2; } public static int s(int a) { return a * a - 3; } }", false, false, false},
		{"class in two jars changed", "app/Base.java",
			"package app; public class Base { public int v; public int get() { return v + 1; } public void work(int n) { for (int i = 0; i < n; i++) v -= i; } public int calc(int x) { return x * 4 + get(); } }", false, false, false},
	}
	compile := func(t *testing.T, dir string, sources map[string]string) string {
		for name, src := range sources {
			writeTestFile(t, dir, name, src)
		}
		return javatest.Jar(t, javatest.Javac(t, javatest.Options{}, dir))
	}
	// The app's classes come as a jar, or as a class directory (as
	// Android's build hands the task the app's own classes), which takes
	// the delta path when the output is merged.
	layouts := []struct {
		name              string
		merge, appClasses bool
	}{{"", false, false}, {", merged", true, false}, {", class directory, merged", true, true}}
	for _, layout := range layouts {
		merge := layout.merge
		for _, tc := range cases {
			name := tc.name + layout.name
			t.Run(name, func(t *testing.T) {
				// outTo names the outputs in dir: mirrored jars, or one merged jar.
				// The report and the rule counts are patched too: the
				// method rule matches helper(int), which two changes remove.
				dir := t.TempDir()
				rules := writeTestFile(t, dir, "rules.txt", "-keepclass lib/Util\n-blockclassmethods app.Main {\n  helper(int);\n}\n")
				outTo := func(dir string) []string {
					args := []string{"--blacklist", rules, "--report", filepath.Join(dir, "report.json")}
					if merge {
						return append(args, "--merge", "-o", filepath.Join(dir, "all.jar"))
					}
					return append(args, "-o", dir)
				}
				appJar, libJar, tailJar := filepath.Join(dir, "in", "app.jar"), filepath.Join(dir, "in", "lib.jar"), filepath.Join(dir, "in", "tail.jar")
				if layout.appClasses {
					appJar = filepath.Join(dir, "in", "app-classes")
				}
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "in"), 0o755))
				build := func(changed bool) {
					app := map[string]string{"app/Base.java": base, "app/Main.java": main, "app/Shape.java": shape}
					libSrc := map[string]string{"lib/Util.java": lib, "app/Base.java": base}
					if changed { // only app.jar's copy of a class changes
						app[tc.file] = tc.source
					}
					blob := 5 << 20 // the change also makes it smaller, so a filled output is cut
					if changed {
						blob -= 300 << 10
					}
					if layout.appClasses {
						for name, src := range app {
							writeTestFile(t, filepath.Join(dir, "src"), name, src)
						}
						classes := javatest.Javac(t, javatest.Options{}, filepath.Join(dir, "src"))
						copyClassTree(t, classes, appJar)
						writeBlob(t, filepath.Join(appJar, "res", "blob.bin"), blob)
					} else {
						require.NoError(t, os.Rename(withBlob(t, compile(t, t.TempDir(), app), blob), appJar))
					}
					require.NoError(t, os.Rename(compile(t, t.TempDir(), libSrc), libJar))
				}
				require.NoError(t, os.Rename(withBlob(t, compile(t, t.TempDir(), map[string]string{"tail/End.java": tail}), 100<<10), tailJar))
				build(false)
				cache, out := filepath.Join(dir, "cache"), filepath.Join(dir, "out")
				run := func(args ...string) (stdout, stderr string) {
					code, stdout, stderr := runCLI(append([]string{"instrument", "--log-level", "debug"}, args...)...)
					require.Equal(t, exitOK, code, stderr)
					return stdout, stderr
				}
				cached := append(append([]string{"--cache", cache}, outTo(out)...), libJar, appJar, tailJar)
				run(cached...)
				first := readTree(t, out)
				_, stderr := run(cached...)
				assert.Contains(t, stderr, `cache: delta run`, "nothing changed: a delta run")
				assert.Equal(t, first, readTree(t, out))
				// A merged jar's unchanged inputs are copied from the last one.
				assert.Equal(t, merge, strings.Contains(stderr, "cache: copied from the last output\t{\"input\": \""+tailJar), stderr)

				// keepBase copies the kept map, the base map of the next run.
				baseMap := filepath.Join(dir, "base.txt")
				keepBase := func() {
					kept, err := filepath.Glob(filepath.Join(cache, "v2", "maps", "*.txt"))
					require.NoError(t, err)
					require.Len(t, kept, 1)
					data, err := os.ReadFile(kept[0])
					require.NoError(t, err)
					require.NoError(t, os.WriteFile(baseMap, data, 0o644))
				}
				// sameAsFresh compares a run's outputs with a run without the
				// cache and with the kept map as its base map.
				sameAsFresh := func(stdout string) {
					fresh := filepath.Join(dir, "fresh")
					require.NoError(t, os.RemoveAll(fresh))
					want, _ := run(append(append([]string{"--base-map", baseMap}, outTo(fresh)...), libJar, appJar, tailJar)...)
					assert.Equal(t, readTree(t, fresh), readTree(t, out))
					assert.Equal(t, summaryCounts(t, want), summaryCounts(t, stdout))
				}
				keepBase()
				if tc.damage { // unchanged classes are rewritten again, not taken from the damaged bodies
					dats, err := filepath.Glob(filepath.Join(cache, "v2", "packs", "*.dat"))
					require.NoError(t, err)
					require.NotEmpty(t, dats)
					for _, dat := range dats {
						data, err := os.ReadFile(dat)
						require.NoError(t, err)
						for i := range data {
							data[i] ^= 0x5a
						}
						require.NoError(t, os.WriteFile(dat, data, 0o600))
					}
				}
				build(true)
				stdout, stderr := run(cached...)
				assert.Equal(t, tc.delta, strings.Contains(stderr, `cache: delta run`), stderr)
				assert.Equal(t, tc.damage, strings.Contains(stderr, "cache: body not reused"), stderr)
				assert.Equal(t, tc.sameMaps, strings.Contains(stderr, "cache: maps unchanged"), stderr)
				assert.Equal(t, merge && tc.delta, strings.Contains(stderr, "cache: copied from the last output\t{\"input\": \""+tailJar), stderr)
				sameAsFresh(stdout)

				// Changed back: the same as a fresh run again.
				keepBase()
				build(false)
				stdout, _ = run(cached...)
				sameAsFresh(stdout)
			})
		}
	}
}

// withBlob returns a copy of jar with an entry of size random bytes added.
func withBlob(t *testing.T, jar string, size int) string {
	t.Helper()
	zr, err := zip.OpenReader(jar)
	require.NoError(t, err)
	defer zr.Close()
	out := filepath.Join(t.TempDir(), filepath.Base(jar))
	f, err := os.Create(out)
	require.NoError(t, err)
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, e := range zr.File {
		require.NoError(t, zw.Copy(e))
	}
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "res/blob.bin", Method: zip.Store})
	require.NoError(t, err)
	_, err = w.Write(blobBytes(size))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return out
}

// copyClassTree makes to a copy of the tree from, as a compiler's output
// directory is written anew.
func copyClassTree(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, os.RemoveAll(to))
	require.NoError(t, filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	}))
}

// writeBlob writes size random bytes (blobBytes) to path.
func writeBlob(t *testing.T, path string, size int) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, blobBytes(size), 0o644))
}

// blobBytes returns size random bytes, the same for the same size.
func blobBytes(size int) []byte {
	blob := make([]byte, size)
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	return blob
}

// readTree returns the SHA-256 of the files under dir by relative path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = fmt.Sprintf("%x", sha256.Sum256(data))
		return err
	}))
	return files
}

// summaryCounts returns the counts of a summary line.
func summaryCounts(t *testing.T, stdout string) []string {
	t.Helper()
	line, _, _ := strings.Cut(stdout, "\n")
	m := summaryLineRe.FindStringSubmatch(line)
	require.NotNil(t, m, stdout)
	return m[1:8]
}

// TestDeltaRunWithBaseMap: with --base-map and --cache, the base map is
// the given one with the last build's map under it (the given ids win;
// methods it lacks keep their ids from build to build), and a delta run
// writes what a run planning every method with the same two maps writes:
// the same jars, maps and report.
func TestDeltaRunWithBaseMap(t *testing.T) {
	const v1 = "package app; public class Main { public int run(int x) { return x * 2 + helper(x); } int helper(int x) { return x - 1 > 3 ? x : -x; } public int other(int y) { int s = 0; for (int i = 0; i < y; i++) s += (int) Util.mix(i, y); return s; } }"
	const v2 = "package app; public class Main { public int run(int x) { return x * 5 + added(x); } int added(int y) { int s = 1; for (int i = 0; i < y; i++) s *= helper(i) + 2; return s; } int helper(int x) { return x - 1 > 3 ? x : -x; } public int other(int y) { int s = 0; for (int i = 0; i < y; i++) s += (int) Util.mix(i, y); return s; } }"
	const util = "package app; public class Util { public static long mix(long a, long b) { return Long.rotateLeft(a * 31 + b, 7); } }"
	dir := t.TempDir()
	jar := filepath.Join(dir, "in", "app.jar")
	require.NoError(t, os.MkdirAll(filepath.Dir(jar), 0o755))
	build := func(main string) {
		src := t.TempDir()
		writeTestFile(t, src, "app/Main.java", main)
		writeTestFile(t, src, "app/Util.java", util)
		require.NoError(t, os.Rename(javatest.Jar(t, javatest.Javac(t, javatest.Options{}, src)), jar))
	}
	// The release knew run and a method since gone; helper and other are
	// newer than the release.
	base := writeTestFile(t, dir, "release-map.txt", "100,1,app.Main run (I)I\n150,1,app.Main gone ()V\n")
	rules := writeTestFile(t, dir, "rules.txt", "-blockclassmethods app.Main {\n  helper(int);\n}\n")
	cache, out := filepath.Join(dir, "cache"), filepath.Join(dir, "out")
	args := []string{"instrument", "--log-level", "debug", "--cache", cache, "--base-map", base, "--blacklist", rules,
		"--report", filepath.Join(out, "report.json"), "--merge", "-o", filepath.Join(out, "app.jar"), jar}
	run := func() string {
		code, _, stderr := runCLI(args...)
		require.Equal(t, exitOK, code, stderr)
		return stderr
	}
	ids := func() map[string]string {
		data, err := os.ReadFile(filepath.Join(out, "methodMapping.txt"))
		require.NoError(t, err)
		m := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if !strings.HasPrefix(line, "#") {
				parts := strings.SplitN(line, ",", 3)
				m[parts[2]] = parts[0]
			}
		}
		return m
	}
	build(v1)
	run()
	first := ids()
	assert.Equal(t, "100", first["app.Main run (I)I"], "the release's id")
	assert.Equal(t, "151", first["app.Main other (I)I"], "above the release's ids")

	build(v2)
	before := filepath.Join(dir, "cache-before")
	require.NoError(t, os.CopyFS(before, os.DirFS(cache)))
	stderr := run()
	assert.Contains(t, stderr, `cache: delta run`, "one class changed: a delta run")
	second := ids()
	assert.Equal(t, "100", second["app.Main run (I)I"])
	assert.Equal(t, first["app.Main other (I)I"], second["app.Main other (I)I"], "an id from the last build, not renumbered")
	assert.Equal(t, first["app.Util mix (JJ)J"], second["app.Util mix (JJ)J"])
	assert.NotContains(t, first, "app.Main added (I)I")

	// And the next edit again: the identity of the run is the given base
	// map's, not the merged one's.
	build(strings.Replace(v2, "x * 5", "x * 6", 1))
	require.NoError(t, os.RemoveAll(before))
	require.NoError(t, os.CopyFS(before, os.DirFS(cache)))
	stderr = run()
	assert.Contains(t, stderr, `cache: delta run`, "one class changed again: a delta run")
	assert.Equal(t, second, ids())
	delta := readTree(t, out)

	// The same run planning every method: the cache as it was, without
	// the last run's snapshot.
	require.NoError(t, os.RemoveAll(cache))
	require.NoError(t, os.CopyFS(cache, os.DirFS(before)))
	require.NoError(t, os.RemoveAll(filepath.Join(cache, "v2", "runs")))
	stderr = run()
	assert.NotContains(t, stderr, `cache: delta run`)
	assert.Equal(t, delta, readTree(t, out))
	// A run planning every method leaves a snapshot for the next edit,
	// under the given base map's identity (not the merged map's).
	build(v2)
	stderr = run()
	assert.Contains(t, stderr, `cache: delta run`, "after a full run: a delta run")
	assert.Equal(t, second, ids())

	// Another base map: every method is planned again, with its ids.
	require.NoError(t, os.WriteFile(base, []byte("100,1,app.Main run (I)I\n200,1,app.Main added (I)I\n"), 0o644))
	stderr = run()
	assert.NotContains(t, stderr, `cache: delta run`)
	assert.Equal(t, "200", ids()["app.Main added (I)I"])
}
