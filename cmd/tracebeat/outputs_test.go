package main

import (
	"fmt"
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

// TestMergeSumsUpSkippedEntries: entries several merged inputs hold (every
// jar's manifest) are one warning with counts, each one at debug level.
func TestMergeSumsUpSkippedEntries(t *testing.T) {
	dir := t.TempDir()
	classes := javatest.ClassFiles(t, insFixtureClasses(t))
	var jars []string
	for i := range 3 {
		entries := map[string][]byte{"META-INF/MANIFEST.MF": []byte(fmt.Sprintf("Manifest-Version: 1.0\nImplementation-Version: %d\n", i))}
		for name, data := range classes {
			if i == 0 {
				entries[name] = data
			}
		}
		entries[fmt.Sprintf("res/only-%d.txt", i)] = []byte("x")
		entries["res/shared.txt"] = []byte(fmt.Sprint(i))
		jar := filepath.Join(dir, fmt.Sprintf("in-%d.jar", i))
		require.NoError(t, os.Rename(javatest.WriteJar(t, entries), jar))
		jars = append(jars, jar)
	}
	code, _, stderr := runCLI(append([]string{"instrument", "--merge", "-o", filepath.Join(dir, "out", "all.jar")}, jars...)...)
	require.Equal(t, exitOK, code, stderr)
	var warned []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "MANIFEST.MF") {
			warned = append(warned, l)
		}
	}
	require.Len(t, warned, 1, stderr)
	assert.Contains(t, warned[0], "skipped 4 later ones: META-INF/MANIFEST.MF (2), res/shared.txt (2) (each at --log-level debug)")

	code, _, stderr = runCLI(append([]string{"instrument", "--log-level", "debug", "--merge", "-o", filepath.Join(dir, "debug", "all.jar")}, jars...)...)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, jars[2]+": META-INF/MANIFEST.MF: already written from an earlier input, skipped")
}
