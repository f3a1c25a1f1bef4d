package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// recordVirtualThreads compiles the virtual-thread fixture with a JDK 21+,
// instruments it, and runs it with the runtime's default settings: tasks
// tasks on one virtual thread each.
func recordVirtualThreads(t *testing.T, tasks string, props ...string) (trace, methodMap, output string) {
	t.Helper()
	home := javatest.JDK21(t)
	dir := t.TempDir()
	classes := filepath.Join(dir, "vthreads")
	src := filepath.Join("..", "..", "jvmruntime", "testdata", "vthreads", "fixture", "VThreads.java")
	msg, err := exec.Command(filepath.Join(home, "bin", "javac"), "--release", "21", "-d", classes, src).CombinedOutput()
	require.NoError(t, err, "javac: %s", msg)
	out := filepath.Join(dir, "out")
	methodMap = filepath.Join(dir, "methodMapping.txt")
	code, _, stderr := runCLI("instrument", "-q", "-o", out, "--method-map", methodMap, classes)
	require.Equal(t, exitOK, code, stderr)
	runtimeJar := filepath.Join(dir, "tracebeat-runtime.jar")
	code, _, stderr = runCLI("runtime", "-o", runtimeJar)
	require.Equal(t, exitOK, code, stderr)
	trace = filepath.Join(dir, "app.trace")
	args := append([]string{"-Dtracebeat.trace=" + trace}, props...)
	args = append(args, "-cp", runtimeJar+string(os.PathListSeparator)+filepath.Join(out, "vthreads"), "fixture.VThreads", tasks)
	got, err := exec.Command(filepath.Join(home, "bin", "java"), args...).CombinedOutput()
	require.NoError(t, err, "java: %s", got)
	return trace, methodMap, string(got)
}

// TestVirtualThreadsKeepTheirCalls: 100,000 tasks, each on a virtual
// thread of its own, recorded with the default budget: the recording keeps
// at least 95% of the calls (the fixture prints how many it made), every
// thread balanced; decode says so in a few lines of notes and a summary of
// a few KB, and draws the virtual threads on lanes of a process of their
// own, each slice naming its thread.
func TestVirtualThreadsKeepTheirCalls(t *testing.T) {
	const tasks = 100000
	trace, methodMap, output := recordVirtualThreads(t, "100000")
	require.Contains(t, output, "calls submit=100000 task=100000 work=100000")

	code, summary, stderr := runDecodeArgs("--map", methodMap, trace)
	require.Equal(t, exitOK, code, stderr)
	require.LessOrEqual(t, len(summary), 256<<10, "text summary: %d bytes", len(summary))
	require.LessOrEqual(t, strings.Count(stderr, "\n"), 20, "notes:\n%s", stderr)
	require.Contains(t, summary, "100000 virtual threads: ")
	for _, bad := range []string{"unclosed", "stray", "backwards", "not in the map"} {
		require.NotContains(t, stderr, bad)
		require.NotContains(t, summary, bad)
	}
	t.Logf("summary head:\n%s\nnotes:\n%s", head(summary, 6), stderr)

	code, js, stderr := runDecodeArgs("--map", methodMap, "--format", "json", trace)
	require.Equal(t, exitOK, code, stderr)
	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &doc))
	calls := map[string]int{}
	vthreads := map[float64]bool{}
	lanes := map[int64]bool{}
	var groupName string
	for _, e := range doc.TraceEvents {
		switch {
		case e.Ph == "M" && e.Name == "process_name" && e.Pid == 2:
			groupName, _ = e.Args["name"].(string)
		case e.Ph == "X":
			short := strings.TrimPrefix(e.Name, "fixture.VThreads.")
			short = short[:strings.IndexByte(short, '(')]
			calls[short]++
			if short == "task" || short == "work" {
				require.Equal(t, int64(2), e.Pid, "%s on a lane of the virtual threads", e.Name)
				vtid, ok := e.Args["vtid"].(float64)
				require.True(t, ok, "each slice names its virtual thread: %v", e.Args)
				vthreads[vtid] = true
				lanes[e.Tid] = true
			}
		}
	}
	require.Contains(t, groupName, "virtual threads")
	for _, m := range []string{"submit", "task", "work"} {
		require.GreaterOrEqual(t, calls[m]*100, tasks*95, "%s: %d of %d calls kept", m, calls[m], tasks)
	}
	require.GreaterOrEqual(t, len(vthreads)*100, tasks*95)
	require.Less(t, len(lanes)*10, len(vthreads), "lanes: about as many as ran at once, far fewer than threads")
	t.Logf("kept submit=%d task=%d work=%d; %d virtual threads on %d lanes", calls["submit"], calls["task"], calls["work"], len(vthreads), len(lanes))
}

func head(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
