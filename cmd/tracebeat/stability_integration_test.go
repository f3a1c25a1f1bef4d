package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// TestInstrumentIsDeterministic: the written maps, the report and every
// output jar are byte-identical at --workers 1, 2 and 8 and across two
// runs with the same settings. The inputs are several jars at once (the
// demo app, the instrumenter's and the class-file fixtures, and Debian's
// commons-lang3 when installed), so ids depend on the order across inputs.
func TestInstrumentIsDeterministic(t *testing.T) {
	app := integBuildDemo(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	inputs := []string{
		integCopy(t, app.jar, in, "demo.jar"),
		integCopy(t, javatest.Jar(t, javatest.InstrumentFixtures(t)), in, "ins.jar"),
		integCopy(t, javatest.Jar(t, javatest.ClassfileFixtures(t)), in, "cf.jar"),
	}
	if _, err := os.Stat(integCommonsLang3); err == nil {
		inputs = append(inputs, integCopy(t, integCommonsLang3, in, "commons-lang3.jar"))
	} else {
		t.Logf("%s not installed: running without it", integCommonsLang3)
	}
	outputs := []string{"methodMapping.txt", "ignoreMethodMapping.txt", "report.json"}
	for _, p := range inputs {
		outputs = append(outputs, filepath.Base(p))
	}

	runs := []string{"1", "2", "8", "2"} // workers; the last repeats a run
	var first map[string][]byte
	for i, workers := range runs {
		out := filepath.Join(dir, fmt.Sprintf("out-%d", i))
		args := []string{"instrument", "--workers", workers, "--classpath", app.stubJar,
			"--report", filepath.Join(out, "report.json"), "-o", out}
		r := integMustRun(t, append(args, inputs...)...)
		require.Positive(t, integSummaryCounts(t, r.stdout)["traced"])
		got := map[string][]byte{}
		for _, name := range outputs {
			data, err := os.ReadFile(filepath.Join(out, name))
			require.NoError(t, err)
			got[name] = data
		}
		if first == nil {
			first = got
			continue
		}
		for _, name := range outputs {
			assert.True(t, bytes.Equal(first[name], got[name]), "run %d (--workers %s): %s differs from the first run", i, workers, name)
		}
	}
}

// integVariants builds the demo app (A) and a later version of it (B)
// that lost util.Validator and gained aaa.Added, a class whose name sorts
// before most of the app, so that without a base map most ids would move.
func integVariants(t *testing.T, app integDemo) (a, b string) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "com", "example", "demo", "aaa", "Added.java")
	require.NoError(t, os.MkdirAll(filepath.Dir(src), 0o755))
	require.NoError(t, os.WriteFile(src, []byte(`package com.example.demo.aaa;

public class Added {
    public String greet(String name) {
        return "hello " + name.trim();
    }

    public static int twice(int x) {
        return Math.addExact(x, x);
    }
}
`), 0o644))
	added := javatest.Javac(t, javatest.Options{Release: 8, Classpath: []string{app.classes}}, src)

	entries := javatest.ClassFiles(t, app.classes)
	removed := 0
	for name := range entries {
		if strings.HasPrefix(name, "com/example/demo/util/Validator") {
			delete(entries, name)
			removed++
		}
	}
	require.Positive(t, removed)
	for name, data := range javatest.ClassFiles(t, added) {
		entries[name] = data
	}
	dir := t.TempDir()
	return integCopy(t, app.jar, filepath.Join(dir, "a"), "app.jar"),
		integCopy(t, javatest.WriteJar(t, entries), filepath.Join(dir, "b"), "app.jar")
}

// TestBaseMapKeepsIDs: with --base-map, a build that removed one class and
// added another keeps the id of every other method; the new methods get ids
// above everything the base used; "check --base" reports exactly the
// removed methods. Adding the class back later gives its methods new ids:
// an id once handed out is never reused.
func TestBaseMapKeepsIDs(t *testing.T) {
	app := integBuildDemo(t)
	jarA, jarB := integVariants(t, app)
	dir := t.TempDir()
	instrument := func(name, jar string, extra ...string) (*methodmap.Map, string) {
		out := filepath.Join(dir, name)
		args := append([]string{"instrument", "--workers", "2", "--classpath", app.stubJar, "-o", out}, extra...)
		integMustRun(t, append(args, jar)...)
		path := filepath.Join(out, "methodMapping.txt")
		m, _ := integReadMap(t, path)
		return m, path
	}
	isRemoved := func(k methodmap.MethodKey) bool { return k.Class == "com/example/demo/util/Validator" }
	isAdded := func(k methodmap.MethodKey) bool { return k.Class == "com/example/demo/aaa/Added" }

	mapA, pathA := instrument("a", jarA)
	mapB, pathB := instrument("b", jarB, "--base-map", pathA)
	mapB0, _ := instrument("b-nobase", jarB)
	idsA, idsB, idsB0 := integIDs(mapA), integIDs(mapB), integIDs(mapB0)

	maxA, removedA, kept, moved := 0, 0, 0, 0
	for k, id := range idsA {
		maxA = max(maxA, id)
		if isRemoved(k) {
			removedA++
			assert.NotContains(t, idsB, k, "removed method still mapped")
			continue
		}
		assert.Equal(t, id, idsB[k], "%s lost its id", k)
		kept++
		if idsB0[k] != id {
			moved++
		}
	}
	require.Positive(t, removedA, "Validator should have traced methods")
	require.Positive(t, kept)
	require.Positive(t, moved, "without the base map some ids should move, or this test proves nothing")
	newIDs := 0
	for k, id := range idsB {
		if _, old := idsA[k]; old {
			continue
		}
		assert.True(t, isAdded(k), "%s is new but not from the added class", k)
		assert.Greater(t, id, maxA, "new method %s", k)
		newIDs++
	}
	assert.Equal(t, 2, newIDs, "Added.greet and Added.twice")

	// check --base names the removed methods and nothing else.
	r := integTool("check", "--map", pathB, "--base", pathA)
	assert.Equal(t, exitFailure, r.code)
	integOnlyViolations(t, r.stdout, removedA, "com.example.demo.util.Validator", "is missing")

	// Validator comes back: new ids, above every id used so far.
	maxB := 0
	for _, id := range idsB {
		maxB = max(maxB, id)
	}
	mapA2, _ := instrument("a2", jarA, "--base-map", pathB)
	for k, id := range integIDs(mapA2) {
		switch {
		case isRemoved(k):
			assert.Greater(t, id, maxB, "%s came back with an old id", k)
		default:
			assert.Equal(t, idsA[k], id, "%s", k)
		}
	}
	assert.Equal(t, len(idsA), len(integIDs(mapA2)))
}

// integOnlyViolations checks that check's output has exactly n violation
// lines, each containing every one of parts.
func integOnlyViolations(t *testing.T, stdout string, n int, parts ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	require.NotEmpty(t, lines)
	summary := lines[len(lines)-1]
	assert.Contains(t, summary, fmt.Sprintf("violations=%d", n))
	for _, l := range lines[:len(lines)-1] {
		for _, p := range parts {
			assert.Contains(t, l, p)
		}
	}
	assert.Len(t, lines[:len(lines)-1], n)
}

// integMapLines splits a written map into its lines (without the newline).
func integMapLines(data []byte) []string {
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// integWriteLines writes lines to a new file in dir.
func integWriteLines(t *testing.T, dir, name string, lines []string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	return p
}

// TestCheckFindsMismatches: "check" passes a map with its own instrumented
// jar (beat and systrace), and catches hand-broken maps, a map of another
// build, a jar that was not instrumented, and a jar read with the wrong
// runtime.
func TestCheckFindsMismatches(t *testing.T) {
	app := integBuildDemo(t)
	jarA, jarB := integVariants(t, app)
	dir := t.TempDir()
	instrument := func(name, jar string, extra ...string) (mapPath, outJar string) {
		out := filepath.Join(dir, name)
		args := append([]string{"instrument", "--workers", "2", "--classpath", app.stubJar, "-o", out}, extra...)
		integMustRun(t, append(args, jar)...)
		return filepath.Join(out, "methodMapping.txt"), filepath.Join(out, filepath.Base(jar))
	}
	mapA, jA := instrument("a", jarA)
	mapB, jB := instrument("b", jarB)
	mapS, jS := instrument("systrace", jarA, "--mode", "systrace")
	mapC, jC := instrument("custom", jarA, "--beat-class", "org.example.trace.Beat")

	data, err := os.ReadFile(mapA)
	require.NoError(t, err)
	lines := integMapLines(data)
	require.Greater(t, len(lines), 3)
	require.True(t, strings.HasPrefix(lines[len(lines)-1], fmt.Sprint(methodmap.DispatchID)+","))
	id := func(l string) string { return l[:strings.IndexByte(l, ',')] }
	rest := func(l string) string { return l[strings.IndexByte(l, ','):] }

	broken := t.TempDir()
	swapped := append([]string(nil), lines...)
	swapped[0], swapped[1] = id(lines[0])+rest(lines[1]), id(lines[1])+rest(lines[0])
	dropped := append(append([]string(nil), lines[:1]...), lines[2:]...)
	dupID := append([]string(nil), lines...)
	dupID[1] = id(lines[0]) + rest(lines[1])
	noDispatch := lines[:len(lines)-1]

	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string // in stdout or stderr
	}{
		{"own jar", []string{"--map", mapA, "--jar", jA}, exitOK, "violations=0"},
		{"map alone", []string{"--map", mapA}, exitOK, "violations=0"},
		{"own jar, systrace", []string{"--map", mapS, "--jar", jS, "--mode", "systrace"}, exitOK, "violations=0"},
		{"own jar, --beat-class given", []string{"--map", mapA, "--jar", jA, "--beat-class", "com.tencent.matrix.trace.core.AppMethodBeat"}, exitOK, "violations=0"},
		{"swapped ids", []string{"--map", integWriteLines(t, broken, "swapped.txt", swapped), "--jar", jA}, exitFailure,
			"is instrumented with id " + id(lines[0]) + ", which"},
		{"line dropped", []string{"--map", integWriteLines(t, broken, "dropped.txt", dropped), "--jar", jA}, exitFailure,
			"is instrumented with id " + id(lines[1]) + ", which"},
		{"duplicate id", []string{"--map", integWriteLines(t, broken, "dup.txt", dupID)}, exitFailure, "duplicate id " + id(lines[0])},
		{"no dispatch entry", []string{"--map", integWriteLines(t, broken, "nodispatch.txt", noDispatch)}, exitFailure, "missing the dispatch entry"},
		{"map of another build", []string{"--map", mapB, "--jar", jA}, exitFailure, "is instrumented with id"},
		{"jar of another build", []string{"--map", mapA, "--jar", jB}, exitFailure, "is instrumented with id"},
		{"jar not instrumented", []string{"--map", mapA, "--jar", jarA}, exitFailure,
			jarA + " carries no injected calls of --beat-class com/tencent/matrix/trace/core/AppMethodBeat: is it the jar that instrument wrote"},
		{"systrace jar read as beat", []string{"--map", mapS, "--jar", jS}, exitFailure, "it carries those of --mode systrace"},
		{"other beat class", []string{"--map", mapA, "--jar", jA, "--beat-class", "com.example.Beat"}, exitFailure,
			"no injected calls of --beat-class com/example/Beat: it carries those of --beat-class com/tencent/matrix/trace/core/AppMethodBeat"},
		{"own jar, custom runtime class", []string{"--map", mapC, "--jar", jC, "--beat-class=org.example.trace.Beat"}, exitOK, "violations=0"},
		{"custom runtime class read as Matrix's", []string{"--map", mapC, "--jar", jC}, exitFailure, "were --beat-class and --mode the ones instrument was given?"},
		{"bad mode", []string{"--map", mapA, "--jar", jA, "--mode", "loud"}, exitUsage, `unknown mode "loud"`},
		{"--mapping without value", []string{"--map", mapA, "--jar", jA, "--mapping"}, exitUsage, "flag needs an argument: --mapping"},
		{"mapping file missing", []string{"--map", mapA, "--jar", jA, "--mapping", filepath.Join(broken, "absent.txt")}, exitFailure, "absent.txt"},
		{"help", []string{"--help"}, exitOK, "--mapping string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := integTool(append([]string{"check"}, tc.args...)...)
			assert.Equal(t, tc.wantCode, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			assert.Contains(t, r.stdout+r.stderr, tc.want)
		})
	}
}
