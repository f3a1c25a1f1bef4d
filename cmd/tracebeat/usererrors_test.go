package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// TestFlagValuesInUsersWords: a flag given a value of the wrong kind is
// named with the value and what it should be, not with Go's parser's words.
func TestFlagValuesInUsersWords(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"instrument", "--workers", "abc", "-o", "out", "in.jar"}, `tracebeat instrument: --workers: "abc" is not a whole number`},
		{[]string{"decode", "--top", "many", "x.trace"}, `tracebeat decode: --top: "many" is not a whole number`},
		{[]string{"decode", "--ids=maybe", "x.trace"}, `tracebeat decode: --ids: "maybe" is not true or false`},
		{[]string{"instrument", "--workers", "99999999999999999999", "-o", "out", "in.jar"}, `tracebeat instrument: --workers: 99999999999999999999 is too large`},
	} {
		code, _, stderr := runCLI(tc.args...)
		require.Equal(t, exitUsage, code, stderr)
		require.Contains(t, stderr, tc.want)
		require.NotContains(t, stderr, "strconv")
	}
}

// TestRuntimeOutputIsAFolder: -o naming a folder says so, once, with the
// jar to name instead; no temporary file is mentioned or left.
func TestRuntimeOutputIsAFolder(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI("runtime", "-o", dir)
	require.Equal(t, exitFailure, code)
	require.Equal(t, fmt.Sprintf("tracebeat runtime: %s is a folder: -o names the jar to write (e.g. -o %s)\n", dir, filepath.Join(dir, "tracebeat-runtime.jar")), stderr)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries)
}

// TestEmptyInputIsWarned: an input without a class file is worth a
// warning (a wrong folder, a build step that did not run); the run still
// succeeds, as a build with no sources must.
func TestEmptyInputIsWarned(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "classes")
	require.NoError(t, os.Mkdir(empty, 0o755))
	code, stdout, stderr := runCLI("instrument", "-o", filepath.Join(dir, "out"), empty)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "classes=0")
	require.Contains(t, stderr, "no class files in "+empty+": nothing to instrument (the right folder or jar?)")
}

// TestPreciseClockHoldsFewerRecords: the precise clock writes a time with
// every record, so in dense code (a call every few nanoseconds) a budget
// holds about half the records it holds with the shared clock (8 bytes a
// record against 4), as the docs say. On a busy machine the clock thread
// runs late and the shared clock turns adaptive (every record timed, as
// the recording says): its records then take up to 8 bytes too, honestly,
// and only the budget's use is checked.
func TestPreciseClockHoldsFewerRecords(t *testing.T) {
	javatest.RequireJava(t)
	classes := filepath.Join(t.TempDir(), "dense")
	compileJava(t, classes, "../../jvmruntime/testdata/dense")
	const budget = 64 << 10
	var adaptive bool
	kept := func(props ...string) int64 {
		trace, _, out := recordProgram(t, classes, "fixture.Dense", nil, nil, append([]string{"-Dtracebeat.budget=64k"}, props...), "27")
		require.Contains(t, out, "fib 27 = 196418")
		f, err := os.Open(trace)
		require.NoError(t, err)
		defer f.Close()
		rec, err := recording.Read(bufio.NewReader(f), trace)
		require.NoError(t, err)
		adaptive = rec.Clock.Adaptive
		var n int64
		for {
			th, err := rec.NextThread()
			if err != nil {
				break
			}
			n += int64(th.Records)
		}
		return n
	}
	shared := kept()
	sharedAdaptive := adaptive
	precise := kept("-Dtracebeat.clock=precise")
	t.Logf("64 KiB kept %d records with the shared clock (adaptive: %v), %d with the precise one", shared, sharedAdaptive, precise)
	if sharedAdaptive {
		require.Greater(t, shared*8, int64(budget)*9/10, "shared, adaptive: 4 to 8 bytes a record, the budget used")
	} else {
		require.Greater(t, shared*4, int64(budget)*9/10, "shared: about 4 bytes a record, the budget used")
	}
	require.LessOrEqual(t, precise*8, int64(budget)*11/10, "precise: about 8 bytes a record")
	require.Greater(t, precise*8, int64(budget)*9/10, "precise: the budget used")
}
