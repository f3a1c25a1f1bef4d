package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/ci"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// spin burns a core until the test that started it kills it; a spinner
// whose test died (its parent changed) stops by itself, as one that
// outlives the longest loaded test does.
func spin() {
	parent, deadline := os.Getppid(), time.Now().Add(30*time.Minute)
	for n := 0; ; n++ {
		if n%(1<<20) == 0 && (os.Getppid() != parent || time.Now().After(deadline)) {
			os.Exit(0)
		}
	}
}

// loadMachine starts one spinning process more than the machine has cores,
// until the test ends.
func loadMachine(t *testing.T) {
	t.Helper()
	for range runtime.NumCPU() + 1 {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "TRACEBEAT_AS_SPINNER=1")
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	}
	time.Sleep(200 * time.Millisecond)
}

// sliceTotals decodes a recording to JSON and adds up the durations of
// the slices of each name, in nanoseconds, with their counts.
func sliceTotals(t *testing.T, methodMap, trace string) (total map[string]int64, calls map[string]int64, clock string) {
	t.Helper()
	code, stdout, stderr := runDecodeArgs("--map", methodMap, "--format", "json", trace)
	require.Equal(t, exitOK, code, stderr)
	var doc struct {
		TraceEvents []traceEventJSON `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	total, calls = map[string]int64{}, map[string]int64{}
	for _, e := range doc.TraceEvents {
		switch {
		case e.Ph == "X":
			total[e.Name] += int64(e.Dur*1000 + 0.5)
			calls[e.Name]++
		case e.Ph == "i" && strings.HasPrefix(e.Name, "clock: "):
			clock = e.Name
		}
	}
	return total, calls, clock
}

// within reports whether got is within 5 ms or 10% (the larger) of the
// range lo..hi, in nanoseconds.
func within(got, lo, hi int64) bool {
	slack := max(int64(5*time.Millisecond), lo/10)
	return got >= lo-slack && got <= hi+slack
}

// TestLoadedClockTotals: on a machine whose cores are all taken by
// spinning processes, where the clock thread waits for a core, the
// default clock's totals stay within 5 ms or 10% of the truth, on two
// fixtures that measure their own work with System.nanoTime() (the clock
// the precise mode reads for every record):
//   - fixture.Busy: methods that busy-wait 1 ms, 100 µs, 10 µs and 1 µs on
//     three threads, each measured inside and around by its caller: the
//     recorded total must lie in that range, give or take the slack;
//   - fixture.Startup: a short program that is mostly start-up (picocli's
//     model and parse, Gson built and serializing, class loading and the
//     JIT at work), each call into the libraries measured around; the
//     recorded totals of those methods must match.
//
// The precise clock is held to the same bounds, which checks the fixtures'
// truth.
func TestLoadedClockTotals(t *testing.T) {
	javatest.RequireJava(t)
	libs := []string{"/usr/share/java/gson.jar", "/usr/share/java/picocli.jar"}
	for _, l := range libs {
		if _, err := os.Stat(l); err != nil {
			if ci.On() {
				t.Fatalf("%s missing (scripts/test.sh installs libgoogle-gson-java and libpicocli-java)", l)
			}
			t.Skipf("%s missing (Debian: apt-get install libgoogle-gson-java libpicocli-java)", l)
		}
	}
	dir := t.TempDir()
	busy := filepath.Join(dir, "busy")
	compileJava(t, busy, "../../jvmruntime/testdata/accuracy")
	startup := filepath.Join(dir, "startup")
	out, err := exec.Command("javac", "-cp", strings.Join(libs, string(os.PathListSeparator)), "-d", startup,
		"../../jvmruntime/testdata/startup/fixture/Startup.java").CombinedOutput()
	require.NoError(t, err, "javac: %s", out)

	loadMachine(t)
	var report strings.Builder
	for _, clock := range []string{"shared", "precise"} {
		props := []string{"-Dtracebeat.clock=" + clock}

		trace, methodMap, output := recordProgram(t, busy, "fixture.Busy", nil, nil, props)
		total, calls, clockLine := sliceTotals(t, methodMap, trace)
		fmt.Fprintf(&report, "%s clock: %s\n", clock, clockLine)
		for _, line := range strings.Split(strings.TrimSpace(output), "\n") {
			f := strings.Fields(line)
			if len(f) != 5 || f[0] != "truth" {
				continue
			}
			n, _ := strconv.ParseInt(f[2], 10, 64)
			inside, _ := strconv.ParseInt(f[3], 10, 64)
			outside, _ := strconv.ParseInt(f[4], 10, 64)
			name := "fixture.Busy." + f[1] + "()V"
			require.Equal(t, n, calls[name], name)
			fmt.Fprintf(&report, "  %-12s truth %7.2f-%7.2f ms, recorded %7.2f ms\n", f[1], ms(inside), ms(outside), ms(total[name]))
			require.True(t, within(total[name], inside, outside), "%s clock, %s: recorded %.2f ms, the truth %.2f-%.2f ms\n%s",
				clock, f[1], ms(total[name]), ms(inside), ms(outside), report.String())
		}

		trace, methodMap, output = recordStartup(t, startup, libs, props)
		total, calls, clockLine = sliceTotals(t, methodMap, trace)
		fmt.Fprintf(&report, "%s clock (start-up): %s\n", clock, clockLine)
		truths := 0
		for _, line := range strings.Split(strings.TrimSpace(output), "\n") {
			f := strings.Fields(line)
			if len(f) != 4 || f[0] != "truth" {
				continue
			}
			truths++
			n, _ := strconv.ParseInt(f[2], 10, 64)
			truth, _ := strconv.ParseInt(f[3], 10, 64)
			require.Equal(t, n, calls[f[1]], f[1])
			fmt.Fprintf(&report, "  %-70s truth %7.2f ms, recorded %7.2f ms\n", f[1], ms(truth), ms(total[f[1]]))
			require.True(t, within(total[f[1]], truth, truth), "%s clock, %s: recorded %.2f ms, the truth %.2f ms\n%s",
				clock, f[1], ms(total[f[1]]), ms(truth), report.String())
		}
		require.Equal(t, 3, truths, output)
	}
	t.Logf("loaded machine (%d spinning processes on %d cores):\n%s", runtime.NumCPU()+1, runtime.NumCPU(), report.String())
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

// recordStartup instruments the start-up fixture with the two libraries
// and runs it with the recorder.
func recordStartup(t *testing.T, classes string, libs, props []string) (trace, methodMap, output string) {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	methodMap = filepath.Join(dir, "methodMapping.txt")
	code, _, stderr := runCLI(append([]string{"instrument", "-q", "-o", out, "--method-map", methodMap, classes}, libs...)...)
	require.Equal(t, exitOK, code, stderr)
	runtimeJar := filepath.Join(dir, "tracebeat-runtime.jar")
	code, _, stderr = runCLI("runtime", "-o", runtimeJar)
	require.Equal(t, exitOK, code, stderr)
	cp := []string{runtimeJar, filepath.Join(out, filepath.Base(classes))}
	for _, l := range libs {
		cp = append(cp, filepath.Join(out, filepath.Base(l)))
	}
	trace = filepath.Join(dir, "app.trace")
	args := append([]string{"-Dtracebeat.trace=" + trace}, props...)
	args = append(args, "-cp", strings.Join(cp, string(os.PathListSeparator)), "fixture.Startup")
	got, err := exec.Command("java", args...).CombinedOutput()
	require.NoError(t, err, "java %s\n%s", strings.Join(args, " "), got)
	return trace, methodMap, string(got)
}
