package instrument_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// appSources writes a small app whose class Changed has one method more
// in version 2, and returns its source directory.
func appSources(t *testing.T, version int) string {
	t.Helper()
	dir := t.TempDir()
	extra := ""
	if version == 2 {
		extra = "int added(int x) { return x * helper(x) + 1; }"
	}
	files := map[string]string{
		"app/Stable.java":  "package app; public class Stable { int run(int n) { int s = 0; for (int i = 0; i < n; i++) s += helper(i); return s; } int helper(int i) { return i * 3 + run2(i); } int run2(int i) { return i ^ 5; } }",
		"app/Changed.java": "package app; public class Changed { int work(int x) { return helper(x) + 2; } int helper(int x) { return x * x + new Stable().run(x); } " + extra + " }",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	return dir
}

// treeFiles reads every file below dir (outputs and maps).
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[rel] = data
		return nil
	}))
	return files
}

type cacheRun struct {
	out string
	res *instrument.Result
}

// runCached runs the pipeline (with a cache when cache is set) over
// inputs, with base as the base map, the way `tracebeat instrument
// --cache` does.
func runCached(t *testing.T, cache string, base *methodmap.Map, mode rewrite.Mode, inputs ...string) cacheRun {
	t.Helper()
	out := t.TempDir()
	rt := rewrite.DefaultRuntime()
	rt.Mode = mode
	res, err := instrument.Run(context.Background(), instrument.Options{
		Inputs: inputs, Output: out, Workers: 2, Runtime: rt,
		Cache: cache, CacheKey: "test-rules", Lists: true,
		Policy: scan.Policy{BaseMap: base},
	})
	require.NoError(t, err)
	return cacheRun{out, res}
}

// TestCacheReusesOnlyWhatIsStillRight runs a build of three inputs (the
// instrument fixtures jar, an app jar and a class directory) with a cache:
// unchanged, after one class changed in the jar and in the directory,
// with other options, and with a damaged cache. Every cached run must
// write exactly what a run without cache writes with the same base map,
// and must reuse what it claims to.
func TestCacheReusesOnlyWhatIsStillRight(t *testing.T) {
	testCacheReuses(t)
}

// TestCacheReusesWithoutMemoryMaps is the same on the path of systems
// without memory maps: reads instead of maps.
func TestCacheReusesWithoutMemoryMaps(t *testing.T) {
	defer instrument.ForcePortable()()
	testCacheReuses(t)
}

func testCacheReuses(t *testing.T) {
	javatest.RequireJava(t)
	fixtures := fixturesJar(t)
	work := t.TempDir()
	appJar := filepath.Join(work, "app.jar")
	appDir := filepath.Join(work, "appclasses")
	install := func(version int) {
		classes := javatest.Javac(t, javatest.Options{}, appSources(t, version))
		data, err := os.ReadFile(javatest.Jar(t, classes))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(appJar, data, 0o644))
		require.NoError(t, os.RemoveAll(appDir))
		require.NoError(t, os.CopyFS(appDir, os.DirFS(classes)))
	}
	install(1)
	inputs := []string{fixtures, appJar, appDir}
	cache := t.TempDir()
	same := func(t *testing.T, want, got cacheRun) {
		t.Helper()
		assert.Equal(t, treeFiles(t, want.out), treeFiles(t, got.out), "outputs differ from a run without cache")
		assert.Equal(t, methodMapOf(t, want.res), methodMapOf(t, got.res))
		assert.Equal(t, want.res.Ignored, got.res.Ignored)
		assert.Equal(t, want.res.Rewritten, got.res.Rewritten)
		assert.Equal(t, want.res.Skipped, got.res.Skipped)
		assert.Equal(t, want.res.Focus, got.res.Focus)
	}

	first := runCached(t, cache, nil, rewrite.ModeBeat, inputs...)
	same(t, runCached(t, "", nil, rewrite.ModeBeat, inputs...), first)
	assert.Zero(t, first.res.CachedScans+first.res.CachedRewrites+first.res.CachedInputs, "an empty cache served something")

	t.Run("unchanged", func(t *testing.T) {
		again := runCached(t, cache, plannedMapOf(t, first.res), rewrite.ModeBeat, inputs...)
		same(t, runCached(t, "", plannedMapOf(t, first.res), rewrite.ModeBeat, inputs...), again)
		assert.Equal(t, 2, again.res.CachedInputs, "both jars come whole from the cache")
		assert.Equal(t, again.res.Classes, again.res.CachedScans, "no class is scanned again")
		assert.Equal(t, again.res.Rewritten, again.res.CachedRewrites, "no class is rewritten again")
		assert.Positive(t, again.res.Rewritten)
	})

	t.Run("one class changed", func(t *testing.T) {
		prev := runCached(t, cache, plannedMapOf(t, first.res), rewrite.ModeBeat, inputs...)
		install(2)
		defer install(1)
		changed := runCached(t, cache, plannedMapOf(t, prev.res), rewrite.ModeBeat, inputs...)
		fresh := runCached(t, "", plannedMapOf(t, prev.res), rewrite.ModeBeat, inputs...)
		same(t, fresh, changed)
		assert.Equal(t, 1, changed.res.CachedInputs, "the fixtures jar is unchanged")
		// Changed.class is new in the app jar and in the directory.
		assert.Equal(t, changed.res.Classes-2, changed.res.CachedScans)
		assert.Equal(t, changed.res.Rewritten-2, changed.res.CachedRewrites)
		// Ids of methods that were there stay; the new one gets a new id.
		ids := map[methodmap.MethodKey]int{}
		for _, e := range plannedMapOf(t, prev.res).Entries {
			ids[e.Key] = e.ID
		}
		var added []int
		for _, e := range methodMapOf(t, changed.res).Entries {
			if id, ok := ids[e.Key]; ok {
				assert.Equal(t, id, e.ID, "%s moved", e.Key)
			} else {
				added = append(added, e.ID)
				assert.Equal(t, "added", e.Key.Name)
				assert.Greater(t, e.ID, plannedMapOf(t, prev.res).HighWater)
			}
		}
		assert.Len(t, added, 1, "one new method (the same key in the jar and the directory)")
	})

	t.Run("other options share nothing", func(t *testing.T) {
		sys := runCached(t, cache, nil, rewrite.ModeSystrace, inputs...)
		same(t, runCached(t, "", nil, rewrite.ModeSystrace, inputs...), sys)
		assert.Zero(t, sys.res.CachedScans+sys.res.CachedRewrites+sys.res.CachedInputs)
	})

	// damage flips one byte in the middle of every pack file with these
	// extensions and returns how many files it changed.
	damage := func(t *testing.T, exts ...string) int {
		t.Helper()
		n := 0
		for _, ext := range exts {
			packs, err := filepath.Glob(filepath.Join(cache, "*", "packs", "*"+ext))
			require.NoError(t, err)
			for _, p := range packs {
				data, err := os.ReadFile(p)
				require.NoError(t, err)
				if len(data) > 0 {
					data[len(data)/2] ^= 0x55 // one flipped byte per file
					n++
				}
				require.NoError(t, os.WriteFile(p, data, 0o644))
			}
		}
		require.Positive(t, n, "no pack files to damage")
		return n
	}
	t.Run("damaged bodies and jars are not used", func(t *testing.T) {
		prev := runCached(t, cache, plannedMapOf(t, first.res), rewrite.ModeBeat, inputs...)
		bodies := damage(t, ".dat")
		damage(t, ".jar")
		damaged := runCached(t, cache, plannedMapOf(t, prev.res), rewrite.ModeBeat, inputs...)
		same(t, runCached(t, "", plannedMapOf(t, prev.res), rewrite.ModeBeat, inputs...), damaged)
		assert.Zero(t, damaged.res.CachedInputs, "a damaged jar was used")
		// Each body is checked on its own: exactly the one hit in each .dat is redone.
		assert.Equal(t, damaged.res.Rewritten-bodies, damaged.res.CachedRewrites)
		assert.Equal(t, damaged.res.Classes, damaged.res.CachedScans, "the intact indexes still serve the scans")
	})
	t.Run("damaged index is not used", func(t *testing.T) {
		prev := runCached(t, cache, plannedMapOf(t, first.res), rewrite.ModeBeat, inputs...)
		damage(t, ".idx")
		damaged := runCached(t, cache, plannedMapOf(t, prev.res), rewrite.ModeBeat, inputs...)
		same(t, runCached(t, "", plannedMapOf(t, prev.res), rewrite.ModeBeat, inputs...), damaged)
		assert.Zero(t, damaged.res.CachedInputs+damaged.res.CachedScans+damaged.res.CachedRewrites,
			"something from a damaged index was used")
	})
}
