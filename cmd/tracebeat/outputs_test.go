package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// splitFixtureJars packs the instrumenter fixtures into two jars of
// different classes: a.jar (classes A-M) and b.jar (the rest).
func splitFixtureJars(t *testing.T, dir string) (a, b string) {
	t.Helper()
	parts := [2]map[string][]byte{{}, {}}
	for name, data := range javatest.ClassFiles(t, insFixtureClasses(t)) {
		base := filepath.Base(name)
		i := 1
		if base[0] <= 'M' {
			i = 0
		}
		parts[i][name] = data
	}
	require.NotEmpty(t, parts[0])
	require.NotEmpty(t, parts[1])
	a, b = filepath.Join(dir, "a.jar"), filepath.Join(dir, "b.jar")
	require.NoError(t, os.Rename(javatest.WriteJar(t, parts[0]), a))
	require.NoError(t, os.Rename(javatest.WriteJar(t, parts[1]), b))
	return a, b
}

// TestRerunWithFewerInputs: a run into a folder removes what the last run
// into it wrote and this one does not (a mirror of an input no longer
// given, a report no longer asked for), whose ids would name other
// methods in the new map; a file the user put there stays, and so does an
// old output the user changed since (with a warning). A merged jar's
// folder may hold other runs' jars: those stay.
func TestRerunWithFewerInputs(t *testing.T) {
	dir := t.TempDir()
	a, b := splitFixtureJars(t, dir)
	out := filepath.Join(dir, "OUT")
	code, _, stderr := runCLI("instrument", "--report", filepath.Join(out, "report.json"), "-o", out, a, b)
	require.Equal(t, exitOK, code, stderr)
	require.FileExists(t, filepath.Join(out, "a.jar"))
	notes := writeTestFile(t, out, "notes.txt", "the user's")

	code, _, stderr = runCLI("instrument", "-o", out, b)
	require.Equal(t, exitOK, code, stderr)
	assert.NoFileExists(t, filepath.Join(out, "a.jar"), "a mirror of an input not given this time")
	assert.NoFileExists(t, filepath.Join(out, "report.json"), "a report not asked for this time")
	assert.Contains(t, stderr, "removed "+filepath.Join(out, "a.jar"))
	assert.FileExists(t, notes)
	code, stdout, stderr := runCLI("check", "--map", filepath.Join(out, "methodMapping.txt"), "--jar", filepath.Join(out, "b.jar"))
	assert.Equal(t, exitOK, code, "%s%s", stdout, stderr)

	t.Run("changed since", func(t *testing.T) {
		code, _, stderr := runCLI("instrument", "-o", out, a, b)
		require.Equal(t, exitOK, code, stderr)
		edited := filepath.Join(out, "a.jar")
		data, err := os.ReadFile(edited)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(edited, append(data, 0), 0o644))
		code, _, stderr = runCLI("instrument", "-o", out, b)
		require.Equal(t, exitOK, code, stderr)
		assert.FileExists(t, edited)
		assert.Contains(t, stderr, edited+": an output of an earlier run that this run does not write, changed since, so left in place")
	})

	t.Run("merged jars share a folder", func(t *testing.T) {
		libs := filepath.Join(dir, "libs")
		for _, in := range []string{a, b} {
			name := strings.TrimSuffix(filepath.Base(in), ".jar")
			code, _, stderr := runCLI("instrument", "--merge", "-o", filepath.Join(libs, name+"-traced.jar"),
				"--method-map", filepath.Join(libs, name+"-methods.txt"), "--ignore-map", filepath.Join(libs, name+"-ignored.txt"), in)
			require.Equal(t, exitOK, code, stderr)
		}
		for _, f := range []string{"a-traced.jar", "a-methods.txt", "b-traced.jar", "b-methods.txt"} {
			assert.FileExists(t, filepath.Join(libs, f))
		}
	})
}
