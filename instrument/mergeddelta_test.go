package instrument_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// jarEntries reads every file entry of a jar.
func jarEntries(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		r, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(r)
		r.Close()
		require.NoError(t, err)
		out[f.Name] = data
	}
	return out
}

// TestMergedDeltaRunSaysWhatAFullRunSays: a delta run into a merged jar
// copies the unchanged input from the last output, moved when the input
// before it changed size, and writes and says what a full run does: the
// same jar, and the entry it skips as written by an earlier input (the
// manifest both jars hold) said once, as a full run says it.
func TestMergedDeltaRunSaysWhatAFullRunSays(t *testing.T) {
	classes := jarEntries(t, fixturesJar(t))
	manifest := []byte("Manifest-Version: 1.0\r\n\r\n")
	classes["META-INF/MANIFEST.MF"] = manifest
	classes["res/shared.txt"] = []byte("tail's")
	dir := t.TempDir()
	head, tail := filepath.Join(dir, "head.jar"), javatest.WriteJar(t, classes)
	// writeHead writes head.jar, with a resource tail holds too when
	// shared is set.
	writeHead := func(pad int, shared ...bool) {
		entries := map[string][]byte{"META-INF/MANIFEST.MF": manifest, "pad.bin": bytes.Repeat([]byte("pad "), pad)}
		if len(shared) > 0 && shared[0] {
			entries["res/shared.txt"] = []byte("head's")
		}
		require.NoError(t, os.Rename(javatest.WriteJar(t, entries), head))
	}
	cache, mapPath := t.TempDir(), filepath.Join(dir, "methodMapping.txt")
	cachedOut := filepath.Join(dir, "out", "all.jar")
	// run writes the merged jar of head and tail, with the cache or
	// without, and returns the result, the jar and whether tail was
	// copied from the last output.
	run := func(withCache bool) (*instrument.Result, []byte, bool) {
		core, logs := observer.New(zapcore.DebugLevel)
		out := filepath.Join(t.TempDir(), "all.jar")
		if withCache {
			out = cachedOut
		}
		opt := instrument.Options{Inputs: []string{head, tail}, Output: out, Merge: true, Workers: 2,
			Lists: true, Log: zap.New(core)}
		if withCache {
			opt.Cache, opt.CacheKey, opt.MapPath = cache, "test", mapPath
		}
		res, err := instrument.Run(context.Background(), opt)
		require.NoError(t, err)
		if withCache {
			require.NoError(t, res.KeepMap())
		}
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		copied := logs.FilterMessage("cache: copied from the last output").FilterField(zap.String("input", tail)).Len() == 1
		return res, data, copied
	}
	sameAs := func(want, got *instrument.Result, wantJar, gotJar []byte) {
		t.Helper()
		assert.True(t, bytes.Equal(wantJar, gotJar), "the jars differ")
		assert.Equal(t, slices.Sorted(slices.Values(want.Warnings)), slices.Sorted(slices.Values(got.Warnings)))
		assert.Equal(t, want.Classes, got.Classes)
		assert.Equal(t, want.Rewritten, got.Rewritten)
	}

	writeHead(100)
	full, _, copied := run(true)
	assert.False(t, copied, "the first run writes every entry")
	require.Contains(t, full.Warnings, tail+": META-INF/MANIFEST.MF: already written from an earlier input, skipped")
	for _, pad := range []int{100, 3000, 10} { // unchanged, then larger, then smaller
		writeHead(pad)
		delta, deltaJar, copied := run(true)
		assert.True(t, copied, "pad %d: tail copied from the last output", pad)
		assert.Equal(t, full.Classes, delta.CachedScans, "pad %d: a delta run", pad)
		fresh, freshJar, _ := run(false)
		sameAs(fresh, delta, freshJar, deltaJar)
	}
	// head now writes a name tail holds, then no longer: tail writes
	// other entries than its span holds, and is written entry by entry,
	// until its span is again what a full run writes.
	for _, step := range []struct {
		shared, copied bool
	}{{true, false}, {false, false}, {false, true}} {
		writeHead(10, step.shared)
		delta, deltaJar, copied := run(true)
		assert.Equal(t, step.copied, copied, "shared %v: tail copied", step.shared)
		assert.Equal(t, full.Classes, delta.CachedScans, "a delta run")
		fresh, freshJar, _ := run(false)
		sameAs(fresh, delta, freshJar, deltaJar)
	}

	// The last output altered in tail's span: tail is written entry by
	// entry, the same again.
	data, err := os.ReadFile(cachedOut)
	require.NoError(t, err)
	at := bytes.Index(data, []byte("pad.bin")) + 20000 // past head's entries
	data[at] ^= 1
	require.NoError(t, os.WriteFile(cachedOut, data, 0o644))
	writeHead(50)
	delta, deltaJar, copied := run(true)
	assert.False(t, copied, "tail is not copied from an altered output")
	assert.Equal(t, full.Classes, delta.CachedScans, "still a delta run")
	fresh, freshJar, _ := run(false)
	sameAs(fresh, delta, freshJar, deltaJar)
}
