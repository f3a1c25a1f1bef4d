package main

import (
	"bytes"
	"os"
	"path/filepath"
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
