package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// TestPerfettoMerge: a recording of four threads merged with a system
// trace made with Perfetto's own protos (its clock snapshot, the app's
// process and threads, a slice of the system's over the recording's time):
// Perfetto's protos read the result, the system's packets first, and every
// slice of the recording on a thread track of the app's pid and tids,
// within the system trace's range once its clock is taken through the
// snapshots (the boot clock 5 s ahead of the monotonic one, as after a
// suspend). A file that is no Perfetto trace is refused, naming it.
// scripts/perfetto-check.sh runs it (TRACEBEAT_PERFETTO_PYTHON).
func TestPerfettoMerge(t *testing.T) {
	python := os.Getenv("TRACEBEAT_PERFETTO_PYTHON")
	if python == "" {
		t.Skip("TRACEBEAT_PERFETTO_PYTHON not set (scripts/perfetto-check.sh sets it)")
	}
	script := filepath.Join("..", "..", "decode", "testdata", "perfetto", "merge_check.py")
	classes := threadsProgram(t)
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, nil, 4, 50)
	f, err := os.Open(trace)
	require.NoError(t, err)
	rec, err := recording.Read(bufio.NewReader(f), trace)
	f.Close()
	require.NoError(t, err)
	require.Equal(t, 4, rec.Version)

	code, js, stderr := runDecodeArgs("--map", methodMap, "--format", "json", trace)
	require.Equal(t, exitOK, code, stderr)
	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	seen := map[int64]bool{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			seen[e.Tid] = true
		}
	}
	var tids []string
	for tid := range seen {
		tids = append(tids, fmt.Sprint(tid))
	}
	sort.Strings(tids)
	const bootOffset = 5_000_000_000
	args := []string{fmt.Sprint(rec.Pid), strings.Join(tids, ","),
		fmt.Sprint(rec.Origin - 1_000_000), fmt.Sprint(rec.Origin + rec.End + 1_000_000), fmt.Sprint(bootOffset)}

	dir := t.TempDir()
	system := filepath.Join(dir, "system.pftrace")
	out, err := exec.Command(python, append([]string{script, "fixture", system}, args...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	merged := filepath.Join(dir, "merged.pftrace")
	code, _, stderr = runDecodeArgs("--map", methodMap, "--format", "perfetto", "--merge", system, "-o", merged, trace)
	require.Equal(t, exitOK, code, stderr)
	out, err = exec.Command(python, append([]string{script, "check", merged}, args...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Equal(t, "ok", lines[len(lines)-1], "%s", out)
	t.Logf("merged: %s", lines[0])

	code, _, stderr = runDecodeArgs("--map", methodMap, "--format", "perfetto", "--merge", methodMap, "-o", filepath.Join(dir, "x.pftrace"), trace)
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, stderr, methodMap+": not a Perfetto trace: byte 0:")
	_, err = os.Stat(filepath.Join(dir, "x.pftrace"))
	assert.True(t, os.IsNotExist(err), "no output is left behind")
	code, _, stderr = runDecodeArgs("--format", "json", "--merge", system, trace)
	assert.Equal(t, exitUsage, code, stderr)
}
