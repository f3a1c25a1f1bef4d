package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// threadsProgram compiles jvmruntime/testdata/threads (fixture.Threads)
// into a directory named "threads" and returns it.
func threadsProgram(t *testing.T) string {
	t.Helper()
	javatest.RequireJava(t)
	classes := filepath.Join(t.TempDir(), "threads")
	compileJava(t, classes, "../../jvmruntime/testdata/threads")
	return classes
}

// recordThreads instruments the program, writes the runtime jar and runs
// fixture.Threads WORKERS ROUNDS with it; it returns the recording, the
// method map and java's output.
func recordThreads(t *testing.T, classes string, instrumentArgs []string, runtimeArgs []string, javaProps []string, workers, rounds int) (trace, methodMap, output string) {
	t.Helper()
	return recordProgram(t, classes, "fixture.Threads", instrumentArgs, runtimeArgs, javaProps, fmt.Sprint(workers), fmt.Sprint(rounds))
}

// recordProgram instruments the classes directory, writes the runtime jar
// and runs mainClass with them and the java properties; it returns the
// recording, the method map and java's output.
func recordProgram(t *testing.T, classes, mainClass string, instrumentArgs, runtimeArgs, javaProps []string, programArgs ...string) (trace, methodMap, output string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	methodMap = filepath.Join(dir, "methodMapping.txt")
	code, _, stderr := runCLI(append(append([]string{"instrument", "-o", out, "--method-map", methodMap}, instrumentArgs...), classes)...)
	require.Equal(t, exitOK, code, stderr)
	runtimeJar := filepath.Join(dir, "tracebeat-runtime.jar")
	code, _, stderr = runCLI(append([]string{"runtime", "-o", runtimeJar}, runtimeArgs...)...)
	require.Equal(t, exitOK, code, stderr)

	trace = filepath.Join(dir, "app.trace")
	args := append([]string{"-Dtracebeat.trace=" + trace}, javaProps...)
	args = append(args, "-cp", runtimeJar+string(os.PathListSeparator)+filepath.Join(out, filepath.Base(classes)), mainClass)
	args = append(args, programArgs...)
	msg, err := exec.Command("java", args...).CombinedOutput()
	require.NoError(t, err, "java %s\n%s", strings.Join(args, " "), msg)
	return trace, methodMap, string(msg)
}

type traceEventJSON struct {
	Name string         `json:"name"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur"`
	Pid  int64          `json:"pid"`
	Tid  int64          `json:"tid"`
	Args map[string]any `json:"args"`
}

// TestRuntimeRecordsEveryThread is the plain-JVM path: instrument a
// multi-threaded program, run it with the jar of `tracebeat runtime`, and
// decode: every thread is there with its name, and its calls are named,
// balanced, nested and last longer than zero; in beat mode, with a
// --beat-class of one's own, and in systrace mode.
func TestRuntimeRecordsEveryThread(t *testing.T) {
	classes := threadsProgram(t)
	const workers, rounds, leaves = 4, 50, 3
	for _, c := range []struct {
		name           string
		instrumentArgs []string
		runtimeArgs    []string
		jvmArgs        []string
	}{
		{"beat", nil, nil, nil},
		{"beat-precise", nil, nil, []string{"-Dtracebeat.clock=precise"}},
		{"beat-class", []string{"--beat-class", "com.acme.trace.Beat"}, []string{"--beat-class", "com.acme.trace.Beat"}, nil},
		{"systrace", []string{"--mode", "systrace"}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			precise := slices.Contains(c.jvmArgs, "-Dtracebeat.clock=precise")
			trace, methodMap, output := recordThreads(t, classes, c.instrumentArgs, c.runtimeArgs, c.jvmArgs, workers, rounds)
			require.Contains(t, output, "threads: 4 workers")
			code, stdout, stderr := runDecodeArgs("--map", methodMap, "--format", "json", trace)
			require.Equal(t, exitOK, code, stderr)
			for _, bad := range []string{"lost", "unclosed", "not returned", "stray", "backwards", "not in the map"} {
				require.NotContains(t, stderr, bad)
			}
			var doc struct {
				TraceEvents []traceEventJSON `json:"traceEvents"`
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
			names := map[int64]string{}
			calls := map[int64][]traceEventJSON{}
			var clock []string
			for _, e := range doc.TraceEvents {
				switch {
				case e.Ph == "M" && e.Name == "thread_name" && e.Tid != 0:
					names[e.Tid] = e.Args["name"].(string)
				case e.Ph == "M":
				case e.Ph == "X":
					calls[e.Tid] = append(calls[e.Tid], e)
				case e.Ph == "i" && e.Tid == 0:
					clock = append(clock, e.Name)
				default:
					t.Errorf("unexpected event %+v", e)
				}
			}
			require.Len(t, clock, 1, "the clock's note")
			if precise {
				require.Equal(t, "clock: precise, System.nanoTime() read for every record", clock[0])
			} else {
				require.Regexp(t, `^clock: shared, read after each 1 ms tick, every 64 records, and for every record while the clock thread is late; a time may be up to [0-9.]+ (ms|µs) late`, clock[0])
			}
			byName := map[string]int64{}
			for tid, n := range names {
				byName[n] = tid
			}
			require.Len(t, names, workers+1, "threads: %v", names)
			require.Contains(t, byName, "main")
			mainCalls := calls[byName["main"]]
			require.Len(t, mainCalls, 1)
			require.Equal(t, "fixture.Threads.main([Ljava.lang.String;)V", mainCalls[0].Name)

			for w := 0; w < workers; w++ {
				tid, ok := byName[fmt.Sprintf("worker-%d", w)]
				require.True(t, ok, "worker-%d missing: %v", w, names)
				counts := map[string]int{}
				var open []traceEventJSON // enclosing calls; events come in entry order
				for _, e := range calls[tid] {
					counts[e.Name]++
					require.Nil(t, e.Args["unclosed"], "%s was not closed by its exit", e.Name)
					if !precise {
						// A shared clock may give a short call the same time at both
						// ends, and then times cannot say who called whom; the
						// summary's depth (below) comes from the records' order.
						require.GreaterOrEqual(t, e.Dur, 0.0, e.Name)
						continue
					}
					require.Greater(t, e.Dur, 0.0, "%s lasts 0", e.Name)
					for len(open) > 0 && open[len(open)-1].Ts+open[len(open)-1].Dur <= e.Ts {
						open = open[:len(open)-1]
					}
					want := map[string]string{
						"fixture.Threads$Worker.run()V":      "",
						"fixture.Threads$Worker.compute(I)J": "fixture.Threads$Worker.run()V",
						"fixture.Threads$Worker.leaf(II)J":   "fixture.Threads$Worker.compute(I)J",
					}
					parent, known := want[e.Name]
					require.True(t, known, "unexpected call %s on worker-%d", e.Name, w)
					if parent == "" {
						require.Empty(t, open, "run()V nested in %v", open)
					} else {
						require.NotEmpty(t, open, "%s at %.3f outside any call", e.Name, e.Ts)
						p := open[len(open)-1]
						require.Equal(t, parent, p.Name, "caller of %s", e.Name)
						require.LessOrEqual(t, e.Ts+e.Dur, p.Ts+p.Dur+0.0005, "%s ends after its caller", e.Name)
					}
					open = append(open, e)
				}
				require.Equal(t, map[string]int{
					"fixture.Threads$Worker.run()V":      1,
					"fixture.Threads$Worker.compute(I)J": rounds,
					"fixture.Threads$Worker.leaf(II)J":   rounds * leaves,
				}, counts, "worker-%d", w)
			}

			png := filepath.Join(t.TempDir(), "trace.png")
			code, stdout, stderr = runDecodeArgs("--map", methodMap, "--png", png, trace)
			require.Equal(t, exitOK, code, stderr)
			pngData, err := os.ReadFile(png)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(string(pngData), "\x89PNG\r\n"), "--png writes a PNG")
			require.Contains(t, stdout, fmt.Sprintf("%d threads, %d calls", workers+1, 1+workers*(1+rounds+rounds*leaves)))
			require.Regexp(t, `tid \d+ "worker-3": 201 calls, max depth 3\n`, stdout)
			require.Regexp(t, `stack 1 of 5, tid \d+ "main": \d+\.\d{3} µs`, stdout)
		})
	}
}

// TestRuntimeRingBudget records more than the budget holds: the buffers
// stay within it, each thread's kept and lost records add up to what it
// recorded, and decode says how many went.
func TestRuntimeRingBudget(t *testing.T) {
	classes := threadsProgram(t)
	const workers, rounds, leaves = 4, 500, 3
	const budget = 64 << 10
	trace, methodMap, _ := recordThreads(t, classes, nil, nil, []string{fmt.Sprintf("-Dtracebeat.budget=%dk", budget>>10)}, workers, rounds)

	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	rec, err := recording.Read(bufio.NewReader(f), trace)
	require.NoError(t, err)
	require.Equal(t, int64(budget), rec.Budget)
	perWorker := int64(2 * (1 + rounds + rounds*leaves))
	var kept, lost int64
	for {
		th, err := rec.NextThread()
		if err != nil {
			break
		}
		require.NoError(t, rec.Records(func(bool, int, uint64) error { return nil }))
		kept += int64(th.Records)
		lost += th.Lost
		if strings.HasPrefix(th.Name, "worker-") {
			require.Equal(t, perWorker, int64(th.Records)+th.Lost, "%s: kept %d + lost %d", th.Name, th.Records, th.Lost)
		}
	}
	require.LessOrEqual(t, kept*4, int64(budget), "records kept: %d (4 bytes each in memory, time marks aside)", kept)
	require.Equal(t, int64(workers)*perWorker+2, kept+lost)
	require.Greater(t, lost, int64(0))

	code, stdout, stderr := runDecodeArgs("--map", methodMap, trace)
	require.Equal(t, exitOK, code, stderr)
	// Threads that lost the same number are told as "N records each", others
	// as a total with the range; which one depends on the scheduling.
	require.Regexp(t, `(records in all \(\d+ to \d+ a thread\)|\d+ records each) lost: its buffer was full`, stderr)
	require.Contains(t, stdout, "records lost (buffer full)")
	code, _, stderr = runDecodeArgs("--map", methodMap, "--format", "json", trace)
	require.Equal(t, exitOK, code, stderr)
}

// TestRuntimeWritesOnDemand: Recorder.write while the program runs; main()
// has not returned then, so decode closes it at the file's end and marks it.
func TestRuntimeWritesOnDemand(t *testing.T) {
	classes := threadsProgram(t)
	snapshot := filepath.Join(t.TempDir(), "snapshot.trace")
	_, methodMap, _ := recordThreads(t, classes, nil, nil, []string{"-Dthreads.snapshot=" + snapshot}, 2, 10)
	code, stdout, stderr := runDecodeArgs("--map", methodMap, "--format", "json", snapshot)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, `"main": 1 call still open when the recording was written`)
	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	unclosed := 0
	for _, e := range doc.TraceEvents {
		if e.Args["unclosed"] == true {
			unclosed++
			require.Equal(t, "fixture.Threads.main([Ljava.lang.String;)V", e.Name)
		}
	}
	require.Equal(t, 1, unclosed)
}

// TestRuntimeCannotWrite: a trace file that cannot be written costs one
// line on stderr; the program's output and exit status stay its own.
func TestRuntimeCannotWrite(t *testing.T) {
	classes := threadsProgram(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	code, _, stderr := runCLI("instrument", "-o", out, classes)
	require.Equal(t, exitOK, code, stderr)
	runtimeJar := filepath.Join(dir, "rt.jar")
	code, _, stderr = runCLI("runtime", "-o", runtimeJar)
	require.Equal(t, exitOK, code, stderr)
	cp := runtimeJar + string(os.PathListSeparator) + filepath.Join(out, "threads")
	missing := filepath.Join(dir, "no-such-dir", "app.trace")
	cmd := exec.Command("java", "-Dtracebeat.trace="+missing, "-cp", cp, "fixture.Threads", "2", "5")
	var so, se strings.Builder
	cmd.Stdout, cmd.Stderr = &so, &se
	require.NoError(t, cmd.Run(), se.String())
	plain, err := exec.Command("java", "-cp", classes, "fixture.Threads", "2", "5").Output()
	require.NoError(t, err)
	require.Equal(t, string(plain), so.String())
	lines := strings.Split(strings.TrimSpace(se.String()), "\n")
	require.Len(t, lines, 1, "stderr: %q", se.String())
	require.Equal(t, "tracebeat: cannot write the trace to "+missing+": the folder "+filepath.Dir(missing)+" does not exist", lines[0],
		"names the trace and why, not a temporary file")
	_, err = os.Stat(missing)
	require.True(t, os.IsNotExist(err))
}

// TestStreamThatCannotOpenKeepsTheRings: stream mode whose file cannot be
// made records in the rings instead, as ring mode does: the threads that
// ended keep their records when the budget is asked back from them (a
// stream drops them there: they are in its file), so a snapshot written
// later holds as many workers as ring mode's (give or take the one at the
// budget's edge).
func TestStreamThatCannotOpenKeepsTheRings(t *testing.T) {
	classes := threadsProgram(t)
	workersIn := func(props ...string) int {
		t.Helper()
		snapshot := filepath.Join(t.TempDir(), "snapshot.trace")
		_, methodMap, out := recordThreads(t, classes, nil, nil,
			append([]string{"-Dtracebeat.budget=128k", "-Dthreads.snapshot=" + snapshot}, props...), 300, 20)
		code, stdout, stderr := runDecodeArgs("--map", methodMap, "--format", "json", snapshot)
		require.Equal(t, exitOK, code, stderr)
		var doc struct {
			TraceEvents []traceEventJSON `json:"traceEvents"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
		workers := map[int64]bool{}
		for _, e := range doc.TraceEvents {
			if strings.HasPrefix(e.Name, "fixture.Threads$Worker.") {
				workers[e.Tid] = true
			}
		}
		t.Logf("%v: %d workers in the snapshot; java said %s", props, len(workers), strings.TrimSpace(out))
		return len(workers)
	}
	missing := filepath.Join(t.TempDir(), "no", "such", "folder", "app.trace")
	ring := workersIn()
	require.Greater(t, ring, 50, "ring mode keeps the ended workers' records")
	// Which worker at the budget's edge still has records depends on how
	// the threads were scheduled (100 or 101 on a loaded machine, run after
	// run); a stream that dropped the ended threads' records keeps none.
	stream := workersIn("-Dtracebeat.mode=stream", "-Dtracebeat.trace="+missing)
	require.InDelta(t, ring, stream, float64(ring)/20, "as many workers as ring mode's, give or take the one at the budget's edge")
}
