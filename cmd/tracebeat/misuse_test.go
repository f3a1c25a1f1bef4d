package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInputsAreSacred: an output that is an input under another name (a
// symbolic link to the input's folder, a hard link, a path through ..)
// is refused before anything is written, naming both (exit 1); two
// outputs that are one file are a usage error (exit 2).
func TestInputsAreSacred(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	libs := filepath.Join(dir, "libs")
	require.NoError(t, os.MkdirAll(libs, 0o755))
	jar := filepath.Join(libs, "app.jar")
	data, err := os.ReadFile(insFixtureJar(t))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(jar, data, 0o644))
	require.NoError(t, os.Symlink(libs, filepath.Join(dir, "out-link")))
	require.NoError(t, os.Link(jar, filepath.Join(dir, "hard.jar")))
	out := filepath.Join(dir, "out")
	other := filepath.Join(dir, "other", "app.jar")
	require.NoError(t, os.MkdirAll(filepath.Dir(other), 0o755))
	require.NoError(t, os.WriteFile(other, data, 0o644))

	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"output folder is a link to the input's folder", []string{"-o", filepath.Join(dir, "out-link"), jar},
			exitFailure, []string{"output " + filepath.Join(dir, "out-link", "app.jar"), "would overwrite input " + jar}},
		{"method map is a hard link of the input", []string{"-o", out, "--method-map", filepath.Join(dir, "hard.jar"), jar},
			exitFailure, []string{"method map " + filepath.Join(dir, "hard.jar"), "input " + jar}},
		{"report through ..", []string{"-o", out, "--report", filepath.Join(out, "..", "libs", "app.jar"), jar},
			exitFailure, []string{"would overwrite input " + jar}},
		{"merged jar through the link", []string{"--merge", "-o", filepath.Join(dir, "out-link", "app.jar"), jar},
			exitFailure, []string{"would overwrite input " + jar}},
		{"cache holds the input", []string{"-o", out, "--cache", libs, jar},
			exitFailure, []string{"cache " + libs, "input " + jar}},
		{"both maps on one path", []string{"-o", out, "--method-map", filepath.Join(dir, "m.txt"), "--ignore-map", filepath.Join(dir, "m.txt"), jar},
			exitUsage, []string{"method map " + filepath.Join(dir, "m.txt") + " and ignore map " + filepath.Join(dir, "m.txt") + " are the same file"}},
		{"report on the method map", []string{"-o", out, "--report", filepath.Join(out, "methodMapping.txt"), jar},
			exitUsage, []string{"are the same file"}},
		{"two inputs of one file name", []string{"-o", out, jar, filepath.Join(dir, "hard.jar"), other},
			exitUsage, []string{"inputs " + jar + " and " + other + " would both be written to " + filepath.Join(out, "app.jar"), "another file name", "--merge"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"instrument"}, tc.args...)...)
			assert.Equal(t, tc.code, code, stderr)
			assert.Empty(t, stdout)
			for _, w := range tc.want {
				assert.Contains(t, stderr, w)
			}
			after, err := os.ReadFile(jar)
			require.NoError(t, err)
			assert.Equal(t, data, after, "the input is untouched")
			_, err = os.Stat(out)
			assert.True(t, os.IsNotExist(err), "nothing was written")
		})
	}

	// The base map may be the method map: it is read before the map is written.
	code, _, stderr := runCLI("instrument", "--quiet", "-o", out, jar)
	require.Equal(t, 0, code, stderr)
	m := filepath.Join(out, "methodMapping.txt")
	code, _, stderr = runCLI("instrument", "--quiet", "-o", out, "--base-map", m, jar)
	assert.Equal(t, 0, code, stderr)
}

// TestNonsenseIsRefused: decode and check want evidence, not "it parsed";
// a runtime class name must be a class name.
func TestNonsenseIsRefused(t *testing.T) {
	dir := t.TempDir()
	random := filepath.Join(dir, "random.bin")
	rng := rand.New(rand.NewPCG(1, 1))
	buf := make([]byte, 80<<10)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	require.NoError(t, os.WriteFile(random, buf, 0o644))
	empty := filepath.Join(dir, "empty.bin")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	jar := insFixtureJar(t)

	for _, tc := range []struct{ name, input, why string }{
		{"random bytes", random, "binary, but not AppMethodBeat records"},
		{"a jar", jar, "a zip archive"},
		{"an empty file", empty, "empty"},
	} {
		t.Run("decode "+tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI("decode", tc.input)
			assert.Equal(t, exitFailure, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.input+": not a recognised trace ("+tc.why)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		})
	}
	t.Run("check --map on a jar", func(t *testing.T) {
		code, stdout, stderr := runCLI("check", "--map", jar)
		assert.Equal(t, exitFailure, code)
		assert.Empty(t, stdout)
		assert.Equal(t, "tracebeat check: "+jar+": not a method map (binary data)\n", stderr)
	})
	t.Run("check --map on prose", func(t *testing.T) {
		prose := writeTestFile(t, dir, "notes.txt", "these are\nmy notes\nabout the build\n")
		code, _, stderr := runCLI("check", "--map", prose)
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, stderr, prose+": not a method map (3 of 3 lines")
		assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	})
	for _, bad := range []string{"not a class!", "com..Beat", "com/1Beat", ""} {
		t.Run("--beat-class "+bad, func(t *testing.T) {
			code, _, stderr := runCLI("instrument", "--beat-class", bad, "-o", filepath.Join(dir, "out"), jar)
			assert.Equal(t, exitUsage, code, stderr)
			assert.Contains(t, stderr, "--beat-class: ")
		})
	}
}

// TestReadableWarnings: classes in two inputs are one line per pair of
// inputs with the count and three examples; a mapping that renames none of
// the classes is called out.
func TestReadableWarnings(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(insFixtureJar(t))
	require.NoError(t, err)
	a, b := filepath.Join(dir, "a.jar"), filepath.Join(dir, "b.jar")
	require.NoError(t, os.WriteFile(a, data, 0o644))
	require.NoError(t, os.WriteFile(b, data, 0o644))
	code, _, stderr := runCLI("instrument", "-o", filepath.Join(dir, "out"), a, b)
	require.Equal(t, 0, code, stderr)
	var dupLines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "in both") {
			dupLines = append(dupLines, l)
		}
	}
	require.Len(t, dupLines, 1, stderr)
	assert.Regexp(t, `\d+ classes are in both `+regexpQuote(a)+` and `+regexpQuote(b)+` \(the first is used; all at --log-level debug\): ins/\S+, ins/\S+, ins/\S+, \.\.\.$`, dupLines[0])

	mapping := writeTestFile(t, dir, "mapping.txt", "org.other.Thing -> a.a:\n    int x -> a\n")
	code, _, stderr = runCLI("instrument", "--mapping", mapping, "-o", filepath.Join(dir, "out2"), a)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "mapping "+mapping+" renames 0 of the ")
	assert.Contains(t, stderr, "is it the mapping of these inputs?")
}

func regexpQuote(s string) string {
	return strings.NewReplacer(`\`, `\\`, `.`, `\.`, `+`, `\+`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// TestOwnOutputIsNotInstrumentedTwice: a jar instrumented before (in
// either mode) goes through again unchanged: its methods are listed with
// the reason already-instrumented, one warning per input gives the count,
// --strict refuses it.
func TestOwnOutputIsNotInstrumentedTwice(t *testing.T) {
	dir := t.TempDir()
	jar := insFixtureJar(t)
	for _, first := range []string{"beat", "systrace"} {
		t.Run(first, func(t *testing.T) {
			once := filepath.Join(dir, first+"-once")
			code, _, stderr := runCLI("instrument", "--quiet", "--mode", first, "-o", once, jar)
			require.Equal(t, 0, code, stderr)
			traced := filepath.Join(once, filepath.Base(jar))
			twice := filepath.Join(dir, first+"-twice")
			report := filepath.Join(dir, first+"-report.json")
			code, stdout, stderr := runCLI("instrument", "--report", report, "-o", twice, traced)
			require.Equal(t, 0, code, stderr)
			a, err := os.ReadFile(traced)
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(twice, filepath.Base(jar)))
			require.NoError(t, err)
			if first == "beat" {
				assert.Equal(t, a, b, "nothing injected a second time")
			} // (a systrace jar instrumented in beat mode gets the focus call in Activities that had no code traced)
			assert.Equal(t, 1, strings.Count(stderr, "instrumented already"), stderr)
			assert.Regexp(t, `\d+ methods are instrumented already \(ins/\S+, \.\.\.\): left as they are \(already-instrumented\)`, stderr)
			assert.Contains(t, stdout, "methods:    0 traced")
			rep, err := os.ReadFile(report)
			require.NoError(t, err)
			assert.Contains(t, string(rep), `"already-instrumented"`)

			code, _, stderr = runCLI("instrument", "--strict", "-o", filepath.Join(dir, first+"-strict"), traced)
			assert.Equal(t, exitFailure, code)
			assert.Contains(t, stderr, "is it an output of tracebeat?")
		})
	}
}

// TestErrorsNameTheOutput: when an output cannot be created, the error
// names the path the user asked for, not a temporary file. (A name of 240
// characters is fine; the temporary name beside it is too long.)
func TestErrorsNameTheOutput(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(insFixtureJar(t))
	require.NoError(t, err)
	jar := filepath.Join(dir, strings.Repeat("a", 240)+".jar")
	require.NoError(t, os.WriteFile(jar, data, 0o644))
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI("instrument", "-o", out, jar)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, filepath.Join(out, filepath.Base(jar)))
	assert.NotContains(t, stderr, ".tracebeat-")
	assert.NotContains(t, stderr, ".tmp")
	_, err = os.Stat(out)
	assert.True(t, os.IsNotExist(err), "nothing left behind")
	t.Log(stderr)
}
