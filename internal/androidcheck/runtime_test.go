package androidcheck

import (
	"bufio"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// runtimeCheck runs RuntimeCheckTest: the beat-instrumented app with
// tracebeat's runtime in place of Matrix's, under Robolectric, once more
// with the app uninstrumented and no runtime; it returns the summary:
// "runtime_threads=N runtime_calls=N boot_clock=yes tids=yes
// slow_ms=N output_same=yes cold_start=yes warm_start=yes budget_...".
//
// test is the JUnit class (RuntimeCheckTest, or RuntimeCheck23Test on
// Android 6.0's framework), run in work of its own; budget: the budget's
// run too.
func runtimeCheck(t *testing.T, tool, work, testClasses, appJar, instrumented, framework string, runtimeJars []string, props map[string]string, test string, budget bool) string {
	t.Helper()
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	rt := filepath.Join(work, "tracebeat-runtime.jar")
	run(t, tool, "runtime", "--android", "-o", rt) // the framework has android.os.Trace
	trace := filepath.Join(work, "android.trace")
	outs := map[string]string{}
	for _, mode := range []string{"plain", "traced"} {
		p := maps.Clone(props)
		outs[mode] = filepath.Join(work, "runtime-"+mode+".txt")
		p["tbcheck.out"] = outs[mode]
		p["tbcheck.tids"] = filepath.Join(work, "tids.txt")
		p["tbcheck.cold"] = filepath.Join(work, "cold.txt")
		p["tbcheck.warm"] = filepath.Join(work, "warm.txt")
		classpath := []string{testClasses, appJar}
		if mode == "traced" {
			p["tracebeat.trace"] = trace
			classpath = []string{testClasses, instrumented, rt}
		}
		jvm := javatest.JVM{Classpath: append(append(classpath, runtimeJars...), framework), Props: p, Timeout: javatest.DefaultTimeout * 3}
		stdout, stderr, err := jvm.Run(t, "org.junit.runner.JUnitCore", test)
		if err != nil {
			t.Fatalf("%s (%s): %v\n%s\n%s", test, mode, err, stdout, stderr)
		}
	}
	plain, _ := os.ReadFile(outs["plain"])
	traced, _ := os.ReadFile(outs["traced"])
	same := len(plain) > 0 && string(plain) == string(traced)
	if !same {
		t.Errorf("the app's output with tracebeat's runtime %q is not its own %q", traced, plain)
	}
	t.Logf("android-check: tracebeat's runtime: the app said %s", strings.TrimSpace(string(traced)))

	// The tids each thread had, as the framework gave them.
	want := map[string]int64{}
	tids, err := os.ReadFile(filepath.Join(work, "tids.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(tids)), "\n") {
		f := strings.Fields(l)
		n, _ := strconv.ParseInt(f[1], 10, 64)
		want[f[0]] = n
	}

	f, err := os.Open(trace)
	if err != nil {
		t.Fatalf("no recording from tracebeat's runtime: %v", err)
	}
	rec, err := recording.Read(bufio.NewReader(f), trace)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	boot := rec.TimeSource == recording.TimeBoot
	if !boot {
		t.Errorf("the recording's times come from source %d, not the boot clock (SystemClock.elapsedRealtimeNanos)", rec.TimeSource)
	}

	methodMap := filepath.Join(filepath.Dir(instrumented), "methodMapping.txt")
	calls := map[int64]map[string]int{}
	var slowMs float64
	total, unclosed := 0, 0
	for _, e := range decodedSlices(t, tool, methodMap, trace, filepath.Join(work, "android.json")) {
		total++
		if calls[e.Tid] == nil {
			calls[e.Tid] = map[string]int{}
		}
		calls[e.Tid][e.Name]++
		if e.Args["unclosed"] != nil || e.Args["startedBeforeBuffer"] != nil {
			unclosed++
		}
		if strings.HasPrefix(e.Name, "tbapp.Work.slowWork(") {
			slowMs = e.Dur / 1000
		}
	}
	tidsOK := true
	for name, rounds := range map[string]int{"bg-0": 1000, "bg-1": 2000} {
		if got := calls[want[name]]["tbapp.Background.square(I)J"]; got != rounds {
			tidsOK = false
			t.Errorf("thread %s (tid %d as the framework gave it): %d calls of square recorded, want %d (calls by tid: %v)", name, want[name], got, rounds, calls)
		}
	}
	if calls[want["main"]]["tbapp.Work.slowWork(J)J"] != 1 {
		tidsOK = false
		t.Errorf("the main thread (tid %d) has no call of slowWork: %v", want["main"], calls[want["main"]])
	}
	if unclosed != 0 {
		t.Errorf("%d calls unclosed or without their enter: every call should be balanced", unclosed)
	}
	if slowMs < 800 || slowMs > 801 {
		t.Errorf("slowWork lasted %.3f ms on the boot clock, want the 800 ms the main thread's sleeps moved it", slowMs)
	}
	// The cold start: one report, about the first Activity focused.
	startup := run(t, tool, "decode", "--map", methodMap, filepath.Join(work, "android-startup-1.trace"))
	// RuntimeCheckTest read the clock before the app's first traced call
	// and at the first Activity's focus (250 ms of sleep and what
	// Robolectric's setup moved it by).
	cold, err := os.ReadFile(filepath.Join(work, "cold.txt"))
	if err != nil {
		t.Fatal(err)
	}
	wantCold := "tracebeat report: a cold start: " + strings.TrimSpace(string(cold)) + ".000 ms from the first traced call to the first focus of tbapp.PlainActivity, on tid "
	coldStart := strings.Contains(startup, wantCold)
	if !coldStart {
		t.Errorf("the startup report does not say tbapp.PlainActivity's cold start as the app measured it (want %q):\n%s", wantCold, startup)
	}
	if _, err := os.Stat(filepath.Join(work, "android-startup-2.trace")); err == nil {
		coldStart = false
		t.Errorf("a second startup report: want one a run, for the first Activity's focus")
	}
	for _, l := range strings.Split(startup, "\n") {
		if strings.Contains(l, "cold start") || strings.HasPrefix(l, "  the ") {
			t.Logf("android-check: startup | %s", l)
		}
	}
	warmStart := warmCheck(t, tool, methodMap, work)
	line := "runtime_threads=" + strconv.Itoa(len(calls)) + " runtime_calls=" + strconv.Itoa(total) + " boot_clock=" + yes(boot) +
		" tids=" + yes(tidsOK) + " slow_ms=" + strconv.FormatFloat(slowMs, 'f', 3, 64) + " output_same=" + yes(same) + " cold_start=" + yes(coldStart) + " warm_start=" + yes(warmStart)
	if !budget {
		return line
	}
	return line + " " + budgetCheck(t, work, testClasses, instrumented, framework, rt, runtimeJars, props, string(plain))
}

// warmCheck: RuntimeCheckTest made an Activity again once both of its
// Activities were destroyed, and focused it (warm.txt: the time as the
// app measured it): one warm start report says so; the Activities made
// while another lived gave none.
func warmCheck(t *testing.T, tool, methodMap, work string) bool {
	t.Helper()
	took, err := os.ReadFile(filepath.Join(work, "warm.txt"))
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(work, "android-warm-1.trace")
	if _, err := os.Stat(report); err != nil {
		t.Errorf("no warm start report: %v", err)
		return false
	}
	text := run(t, tool, "decode", "--map", methodMap, report)
	want := "tracebeat report: a warm start: " + strings.TrimSpace(string(took)) + ".000 ms from the creation of tbapp.PlainActivity to its first focus, on tid "
	ok := strings.Contains(text, want)
	if !ok {
		t.Errorf("the warm start report does not say the warm start as the app measured it (want %q):\n%s", want, text)
	}
	if _, err := os.Stat(filepath.Join(work, "android-warm-2.trace")); err == nil {
		ok = false
		t.Errorf("a second warm start report: the Activities made while another lived are no warm start")
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "warm start") {
			t.Logf("android-check: warm start | %s", l)
		}
	}
	return ok
}
