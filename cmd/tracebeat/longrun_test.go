package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// A program instrumented once per test binary: its plain classes, its
// instrumented ones, its map, and the runtime jar.
type longrunProgram struct {
	plain, traced, methodMap, runtimeJar string
}

var (
	longrunOnce     sync.Map // fixture name -> *sync.Once
	longrunPrograms sync.Map // fixture name -> *longrunProgram
)

// longrunFixture compiles jvmruntime/testdata/NAME and instruments it.
func longrunFixture(t *testing.T, name string) *longrunProgram {
	t.Helper()
	javatest.RequireJava(t)
	once, _ := longrunOnce.LoadOrStore(name, &sync.Once{})
	once.(*sync.Once).Do(func() {
		dir, err := os.MkdirTemp("", "tracebeat-longrun-"+name+"-")
		if err != nil {
			return
		}
		p := &longrunProgram{plain: filepath.Join(dir, "classes"), methodMap: filepath.Join(dir, "methodMapping.txt"),
			runtimeJar: filepath.Join(dir, "tracebeat-runtime.jar")}
		compileJava(t, p.plain, "../../jvmruntime/testdata/"+name)
		out := filepath.Join(dir, "out")
		if code, _, stderr := runCLI("instrument", "-q", "-o", out, "--method-map", p.methodMap, p.plain); code != exitOK {
			t.Fatalf("instrument: %s", stderr)
		}
		p.traced = filepath.Join(out, "classes")
		if code, _, stderr := runCLI("runtime", "-o", p.runtimeJar); code != exitOK {
			t.Fatalf("runtime: %s", stderr)
		}
		longrunPrograms.Store(name, p)
	})
	p, ok := longrunPrograms.Load(name)
	if !ok {
		t.Fatalf("fixture %s was not built", name)
	}
	return p.(*longrunProgram)
}

// javaProcess is a JVM running in the background, its output captured.
type javaProcess struct {
	cmd    *exec.Cmd
	stdout *syncBuffer
	stderr *syncBuffer
	done   chan error
}

func (p *longrunProgram) start(t *testing.T, props []string, mainClass string, args ...string) *javaProcess {
	t.Helper()
	jargs := append(append([]string{}, props...), "-cp", p.runtimeJar+string(os.PathListSeparator)+p.traced, mainClass)
	cmd := exec.Command("java", append(jargs, args...)...)
	jp := &javaProcess{cmd: cmd, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = jp.stdout, jp.stderr
	require.NoError(t, cmd.Start())
	go func() { jp.done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill(); <-jp.done; jp.done <- nil })
	return jp
}

// waitFor waits until the program printed line, or fails.
func (jp *javaProcess) waitFor(t *testing.T, line string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(jp.stdout.String(), line) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in 60 s; stdout:\n%s\nstderr:\n%s", line, jp.stdout.String(), jp.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wait waits for the program's end (a minute at most).
func (jp *javaProcess) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-jp.done:
		jp.done <- err
		return err
	case <-time.After(time.Minute):
		t.Fatalf("the program did not end in a minute; stdout:\n%s\nstderr:\n%s", jp.stdout.String(), jp.stderr.String())
		return nil
	}
}

// plainOutput runs the uninstrumented program.
func (p *longrunProgram) plainOutput(t *testing.T, mainClass string, args ...string) string {
	t.Helper()
	out, err := exec.Command("java", append([]string{"-cp", p.plain, mainClass}, args...)...).Output()
	require.NoError(t, err)
	return string(out)
}

// readRecording reads a recording's header and its threads' calls.
func readRecordingFile(t *testing.T, path string) *recording.Recording {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	rec, err := recording.ReadAt(bufio.NewReader(f), f, st.Size(), path)
	require.NoError(t, err)
	t.Cleanup(rec.Close)
	return rec
}

// summaryCalls is the "N calls" of a thread's line in decode's summary.
func summaryCalls(t *testing.T, summary, thread string) int {
	t.Helper()
	m := regexp.MustCompile(`"` + regexp.QuoteMeta(thread) + `": (\d+) calls?`).FindStringSubmatch(summary)
	if m == nil {
		return 0
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

// TestDumpsOnDemand: a server that keeps running is asked for its
// recording four ways (tracebeat dump, dump -o, the trigger file, SIGUSR2);
// each dump decodes, a later one holds more, and the program's output is
// what it prints untraced.
func TestDumpsOnDemand(t *testing.T) {
	p := longrunFixture(t, "server")
	want := p.plainOutput(t, "fixture.Server", "2", "5")
	dir := t.TempDir()
	trace := filepath.Join(dir, "app.trace")
	jp := p.start(t, []string{"-Dtracebeat.trace=" + trace}, "fixture.Server", "2", "5")
	jp.waitFor(t, "server: ready")
	pid := fmt.Sprint(jp.cmd.Process.Pid)

	time.Sleep(time.Second)
	code, stdout, stderr := runCLI("dump", pid)
	require.Equal(t, exitOK, code, stderr)
	first := strings.TrimSpace(stdout)
	assert.Equal(t, filepath.Join(dir, "app-dump-1.trace"), first)
	code, stdout, _ = runCLI("dump", "--list")
	require.Equal(t, exitOK, code)
	assert.Contains(t, stdout, pid+"\tring\t"+trace)

	time.Sleep(time.Second)
	second := filepath.Join(dir, "second.trace")
	code, stdout, stderr = runCLI("dump", pid, "-o", second)
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, second, strings.TrimSpace(stdout))

	// Without the command: a file beside the recording, then a signal.
	require.NoError(t, os.WriteFile(trace+".dump", nil, 0o644))
	waitForFile(t, filepath.Join(dir, "app-dump-2.trace"))
	if dumpSignal != nil {
		require.NoError(t, jp.cmd.Process.Signal(dumpSignal))
		waitForFile(t, filepath.Join(dir, "app-dump-3.trace"))
	}
	require.NoError(t, jp.wait(t))
	assert.Equal(t, want, jp.stdout.String(), "the program's output is what it prints untraced")

	var ends []uint64
	var loopCalls []int
	for _, f := range []string{first, second, filepath.Join(dir, "app-dump-2.trace"), trace} {
		code, out, errs := runDecodeArgs("--map", p.methodMap, f)
		require.Equal(t, exitOK, code, errs)
		assert.NotContains(t, errs, "stray", f)
		rec := readRecordingFile(t, f)
		ends = append(ends, rec.End)
		loopCalls = append(loopCalls, summaryCalls(t, out, "loop-0"))
	}
	assert.IsIncreasing(t, ends, "each dump is later than the one before, the recording at exit last")
	assert.Greater(t, loopCalls[0], 0)
	assert.Greater(t, loopCalls[1], loopCalls[0], "the second dump holds more of the loop's calls")
}

func waitForFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s in 10 s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStreamSurvivesKill: the whole run, killed with SIGKILL after a few
// seconds, decodes up to about its last second, each thread balanced up to
// its cut (no lost records, no stray exit; the calls open at the kill are
// the only ones unclosed).
func TestStreamSurvivesKill(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	p := longrunFixture(t, "server")
	trace := filepath.Join(t.TempDir(), "app.trace")
	jp := p.start(t, []string{"-Dtracebeat.trace=" + trace, "-Dtracebeat.mode=stream"}, "fixture.Server", "2")
	jp.waitFor(t, "server: ready")
	ready := time.Now()
	time.Sleep(3 * time.Second)
	require.NoError(t, jp.cmd.Process.Signal(syscall.SIGKILL))
	ran := time.Since(ready)
	jp.wait(t)

	rec := readRecordingFile(t, trace)
	assert.True(t, rec.Cut, "no footer")
	assert.Greater(t, time.Duration(rec.End), ran-1500*time.Millisecond, "it covers the run up to about its last second")
	code, stdout, stderr := runDecodeArgs("--map", p.methodMap, "--format", "json", trace)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "ends without its footer (the program was killed, or still runs, or the file was cut)")
	for _, bad := range []string{"lost", "stray", "backwards", "damaged"} {
		assert.NotContains(t, stderr, bad)
	}
	unclosed := map[int64]int{}
	calls := map[int64]int{}
	for _, e := range traceEvents(t, stdout) {
		if e.Ph == "X" {
			calls[e.Tid]++
			if e.Args["unclosed"] == true {
				unclosed[e.Tid]++
			}
		}
	}
	assert.Len(t, calls, 4, "main, two loops and the late helper")
	for tid, n := range unclosed {
		assert.LessOrEqual(t, n, 4, "tid %d: only the calls open at the kill are unclosed", tid)
	}
}

func traceEvents(t *testing.T, doc string) []traceEventJSON {
	t.Helper()
	var d struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc), &d))
	return d.TraceEvents
}

// TestSlowCallReport: one 800 ms call among thousands of fast ones gives
// exactly one report at slow=700ms, naming the call with Matrix's stack
// and key, in both modes; none at slow=900ms.
func TestSlowCallReport(t *testing.T) {
	p := longrunFixture(t, "slow")
	want := p.plainOutput(t, "fixture.Slow")
	slowID := methodID(t, p.methodMap, "fixture.Slow slowOne (I)J")
	for _, mode := range []string{"ring", "stream"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			trace := filepath.Join(dir, "app.trace")
			jp := p.start(t, []string{"-Dtracebeat.trace=" + trace, "-Dtracebeat.mode=" + mode, "-Dtracebeat.slow=700ms",
				"-Dtracebeat.map=" + p.methodMap}, "fixture.Slow")
			require.NoError(t, jp.wait(t))
			assert.Equal(t, want, jp.stdout.String())
			assert.Regexp(t, `tracebeat: slow call: fixture\.Slow\.slowOne\(I\)J \(method \d+\) took 8\d\d\.\d{3} ms on thread "main" \(tid \d+\) \(report: .*app-slow-1\.trace\)`,
				jp.stderr.String())
			reports, _ := filepath.Glob(filepath.Join(dir, "app-slow-*.trace"))
			require.Equal(t, []string{filepath.Join(dir, "app-slow-1.trace")}, reports, "exactly one report")
			code, out, errs := runDecodeArgs("--map", p.methodMap, reports[0])
			require.Equal(t, exitOK, code, errs)
			assert.Regexp(t, `tracebeat report: a slow call: fixture\.Slow\.slowOne\(I\)J took 8\d\d\.\d{3} ms on tid \d+ "main" \(over 700 ms\)`, out)
			assert.Contains(t, out, "called from: fixture.Slow.main([Ljava.lang.String;)V\n")
			assert.Contains(t, out, "the call, as Matrix reports it (trimmed to 30 calls): ")
			assert.Contains(t, out, fmt.Sprintf("stackKey %d|\nkey method: %d fixture.Slow.slowOne(I)J", slowID, slowID))

			quiet := t.TempDir()
			jp = p.start(t, []string{"-Dtracebeat.trace=" + filepath.Join(quiet, "app.trace"), "-Dtracebeat.mode=" + mode, "-Dtracebeat.slow=900ms"}, "fixture.Slow")
			require.NoError(t, jp.wait(t))
			reports, _ = filepath.Glob(filepath.Join(quiet, "app-slow-*.trace"))
			assert.Empty(t, reports, "no call took 900 ms")
			assert.NotContains(t, jp.stderr.String(), "slow call")
		})
	}
}

// methodID is the id the map gives the method "class name desc".
func methodID(t *testing.T, methodMap, key string) int {
	t.Helper()
	data, err := os.ReadFile(methodMap)
	require.NoError(t, err)
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasSuffix(l, ","+key) || strings.Contains(l, ","+key) && strings.HasSuffix(l, key) {
			var id int
			fmt.Sscan(strings.SplitN(l, ",", 2)[0], &id)
			return id
		}
	}
	t.Fatalf("%s not in %s", key, methodMap)
	return 0
}

// TestStallReport: a thread blocked on a latch gets its report while it is
// still blocked, with the blocking call open, in both modes.
func TestStallReport(t *testing.T) {
	p := longrunFixture(t, "stall")
	for _, mode := range []string{"ring", "stream"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			trace := filepath.Join(dir, "app.trace")
			report := filepath.Join(dir, "app-stall-1.trace")
			jp := p.start(t, []string{"-Dtracebeat.trace=" + trace, "-Dtracebeat.mode=" + mode, "-Dtracebeat.stall=1s"}, "fixture.Stall", report)
			require.NoError(t, jp.wait(t))
			assert.Equal(t, "stall: report written while the worker was stuck\n", jp.stdout.String())
			code, out, errs := runDecodeArgs("--map", p.methodMap, report)
			require.Equal(t, exitOK, code, errs)
			assert.Regexp(t, `tracebeat report: a stall: tid \d+ "worker" was stuck in fixture\.Stall\.waitForRelease\(Ljava\.util\.concurrent\.CountDownLatch;J\)V for 1\d{3}\.\d{3} ms when the report was written \(over 1 s\).*the call was still open`, out)
			assert.Regexp(t, `\* +\d+\.\d{3} µs +1  fixture\.Stall\.waitForRelease\(Ljava\.util\.concurrent\.CountDownLatch;J\)V  \[no exit recorded\]`, out)
			others, _ := filepath.Glob(filepath.Join(dir, "app-stall-*.trace"))
			assert.Len(t, others, 1, "main polls through a traced call: only the worker stalled")
		})
	}
}

// TestStreamBounds: a stream past its size bound keeps its newest part, and
// decode says what went; the age bound likewise.
func TestStreamBounds(t *testing.T) {
	p := longrunFixture(t, "server")
	for _, c := range []struct {
		name  string
		props []string
		note  string
	}{
		{"size", []string{"-Dtracebeat.maxsize=24k"}, "went to its size bound (-Dtracebeat.maxsize)"},
		{"age", []string{"-Dtracebeat.maxage=1s"}, "went to its age bound (-Dtracebeat.maxage)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "app.trace")
			props := append([]string{"-Dtracebeat.trace=" + trace, "-Dtracebeat.mode=stream", "-Dtracebeat.flush=100ms"}, c.props...)
			jp := p.start(t, props, "fixture.Server", "2", "4")
			require.NoError(t, jp.wait(t))
			st, err := os.Stat(trace)
			require.NoError(t, err)
			if c.name == "size" {
				assert.Less(t, st.Size(), int64(2*24<<10), "the file stays within twice its bound")
			}
			rec := readRecordingFile(t, trace)
			require.NotNil(t, rec.Dropped, "its oldest chunks went")
			assert.False(t, rec.Cut)
			code, _, stderr := runDecodeArgs("--map", p.methodMap, trace)
			require.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stderr, c.note)
			assert.Greater(t, rec.Dropped.To, uint64(0))
			assert.Greater(t, rec.End, rec.Dropped.To, "what is kept is newer than what went")
			for _, bad := range []string{"stray", "damaged"} {
				assert.NotContains(t, stderr, bad)
			}
		})
	}
}

// TestLoadedServer: a server whose event loops take the budget, recorded
// while spinning processes load every core: the thread that starts late
// keeps calls of its own (the largest ring gives it room), and the clock's
// stated bound stays within a few milliseconds.
func TestLoadedServer(t *testing.T) {
	p := longrunFixture(t, "server")
	loadMachine(t)
	trace := filepath.Join(t.TempDir(), "app.trace")
	jp := p.start(t, []string{"-Dtracebeat.trace=" + trace, "-Dtracebeat.budget=64k"}, "fixture.Server", "2", "4")
	require.NoError(t, jp.wait(t))
	code, out, stderr := runDecodeArgs("--map", p.methodMap, trace)
	require.Equal(t, exitOK, code, stderr)
	assert.Greater(t, summaryCalls(t, out, "late-helper"), 50, "the late thread keeps its calls:\n%s", out)
	rec := readRecordingFile(t, trace)
	bound := time.Duration(rec.Clock.Resolution())
	t.Logf("loaded server: clock bound %v; %s", bound, strings.Split(out, "\n")[1])
	assert.Less(t, bound, 10*time.Millisecond, "the stated bound of a server's times on a loaded machine")
}
