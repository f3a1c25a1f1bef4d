package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/methodmap"
	"github.com/tracebeat/tracebeat/profile"
)

// TestRecordRunsAProgramNTimes: `tracebeat record` on the instrumented
// testdata/diff/v1, through JAVA_TOOL_OPTIONS and through {trace}: a
// recording a run, each of the build and holding its calls; a folder that
// holds runs is refused unless --replace; a run that fails or records
// nothing stops it with a message that says which run and why.
func TestRecordRunsAProgramNTimes(t *testing.T) {
	classes := diffBuilds(t)[0]
	dir := t.TempDir()
	traced, methodMap, jar := filepath.Join(dir, "traced"), filepath.Join(dir, "methodMapping.txt"), filepath.Join(dir, "tracebeat-runtime.jar")
	code, _, stderr := runCLI("instrument", "-q", "-o", traced, "--method-map", methodMap, classes)
	require.Equal(t, exitOK, code, stderr)
	code, _, stderr = runCLI("runtime", "-o", jar)
	require.Equal(t, exitOK, code, stderr)
	cp := jar + string(os.PathListSeparator) + filepath.Join(traced, filepath.Base(classes))
	names, err := decode.LoadMethodNames(methodMap)
	require.NoError(t, err)
	id, err := methodmap.ReadBuildID(methodMap)
	require.NoError(t, err)

	runs := filepath.Join(dir, "runs")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"JAVA_TOOL_OPTIONS", []string{"-n", "2", "-o", runs, "--", "java", "-cp", cp, "app.Work", "2", "1"}},
		{"{trace}", []string{"-n", "2", "-o", runs, "--replace", "--", "java", "-Dtracebeat.trace={trace}", "-cp", cp, "app.Work", "2", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"record"}, c.args...)...)
			require.Equal(t, exitOK, code, stderr)
			assert.Equal(t, "true\ntrue\n", stdout, "the program's output is its own")
			assert.Contains(t, stderr, "tracebeat record: 2 runs in "+runs)
			files, err := filepath.Glob(filepath.Join(runs, "*"))
			require.NoError(t, err)
			require.Equal(t, []string{filepath.Join(runs, "run-1.trace"), filepath.Join(runs, "run-2.trace")}, files)
			for _, f := range files {
				p, err := profile.Read(f, names, decode.MapBuild{Path: methodMap, ID: id})
				require.NoError(t, err, f)
				assert.Equal(t, int64(2), p.Methods["app.Work.slowed(I)J"].Calls, f)
			}
		})
	}

	// Two builds in turns (here the one build twice, a folder each): A B,
	// B A, A B, as the recordings' start times show.
	sides := [2]string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}
	code, stdout, stderr := runCLI("record", "-n", "3", "-o", sides[0], "-o", sides[1], "--",
		"java", "-cp", cp, "app.Work", "2", "1", ":::", "java", "-Dtracebeat.trace={trace}", "-cp", cp, "app.Work", "1", "1")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, strings.Repeat("true\n", 6), stdout)
	var starts [2][]int64
	for i, side := range sides {
		assert.Contains(t, stderr, "tracebeat record: 3 runs in "+side)
		for k := 1; k <= 3; k++ {
			p, err := profile.Read(filepath.Join(side, fmt.Sprintf("run-%d.trace", k)), names, decode.MapBuild{Path: methodMap, ID: id})
			require.NoError(t, err)
			assert.Equal(t, int64(2-i), p.Methods["app.Work.slowed(I)J"].Calls, "each folder holds its own command's runs")
			starts[i] = append(starts[i], p.Start.UnixNano())
		}
	}
	assert.Less(t, starts[0][0], starts[1][0], "round 1: A first")
	assert.Less(t, starts[1][1], starts[0][1], "round 2: B first")
	assert.Less(t, starts[0][2], starts[1][2], "round 3: A first")
	assert.Less(t, starts[1][0], starts[1][1], "B's runs in order")

	// A folder whose path holds a blank (C:\Users\Jane Doe\...): the path
	// goes through JAVA_TOOL_OPTIONS quoted, and the JVM takes it whole.
	blank := filepath.Join(dir, "with blank", "runs")
	code, _, stderr = runCLI("record", "-n", "1", "-o", blank, "--", "java", "-cp", cp, "app.Work", "2", "1")
	require.Equal(t, exitOK, code, stderr)
	_, err = profile.Read(filepath.Join(blank, "run-1.trace"), names, decode.MapBuild{Path: methodMap, ID: id})
	require.NoError(t, err)

	for _, c := range []struct {
		name, want string
		args       []string
	}{
		{"a folder of runs", "holds 2 recordings already (run-1.trace): give an empty folder, or --replace to remove them",
			[]string{"-n", "1", "-o", runs, "--", "java", "-cp", cp, "app.Work", "2", "1"}},
		{"a run that fails", "run 1 of 2: java exited with 1; the recordings so far are in",
			[]string{"-n", "2", "-o", filepath.Join(dir, "failed"), "--", "java", "-cp", cp, "app.NoSuchClass"}},
		{"a run that records nothing", "run 1 of 1 ran, but wrote no " + filepath.Join(dir, "untraced", "run-1.trace"),
			[]string{"-n", "1", "-o", filepath.Join(dir, "untraced"), "--", "java", "-cp", classes, "app.Work", "1", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(append([]string{"record"}, c.args...)...)
			assert.Equal(t, exitFailure, code, stderr)
			assert.Contains(t, stderr, c.want)
		})
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", runs, "--"}, "expected the command to run after --"},
		{[]string{"--", "java"}, "-o DIR is needed"},
		{[]string{"-n", "0", "-o", runs, "--", "java"}, "-n must be at least 1"},
		{[]string{"-o", runs, "-o", runs + "2", "--", "java"}, "two folders take two commands, the second after a lone :::"},
		{[]string{"-o", runs, "--", "java", ":::", "java"}, "two commands take two folders: -o BASE -o NEW"},
		{[]string{"-o", runs, "-o", runs + "2", "--", "java", ":::"}, "::: stands between two commands: one is empty"},
		{[]string{"-o", "a", "-o", "b", "-o", "c", "--", "java", ":::", "java", ":::", "java"}, "record takes one build or two in turns, not 3"},
	} {
		code, _, stderr = runCLI(append([]string{"record"}, c.args...)...)
		assert.Equal(t, exitUsage, code, c.args)
		assert.True(t, strings.Contains(stderr, c.want), stderr)
	}
}
