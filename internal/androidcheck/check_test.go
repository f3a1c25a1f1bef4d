package androidcheck

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// The artifacts testdata/android/pom.xml pins.
const (
	androidAll = "android-all-15-robolectric-13954326.jar" // the framework, as the app compiles against it
	// oldestAll is Android 5.0's framework and libcore (API 21), the
	// oldest the runtime is for: its classes checked against (oldapi_test.go).
	oldestAll   = "android-all-5.0.2_r3-robolectric-r0.jar"
	matrixTrace = "matrix-trace-canary-0.6.0.aar"
	matrixLib   = "matrix-android-lib-0.6.0.aar"
)

// Result is what the check found, for its last line.
type Result struct {
	StackMethods, UnknownIDs, TopMs int
	FocusCalls, FocusChanges        int
	SystraceBalanced                bool
}

// Line is the check's summary line (the Gradle 8 part is its own test's).
func (r Result) Line() string {
	balanced := "no"
	if r.SystraceBalanced {
		balanced = "yes"
	}
	return fmt.Sprintf("matrix_stack_methods=%d unknown_ids=%d top_ms=%d focus_calls=%d/%d systrace_balanced=%s",
		r.StackMethods, r.UnknownIDs, r.TopMs, r.FocusCalls, r.FocusChanges, balanced)
}

// classesOfAAR writes an AAR's classes.jar beside it as NAME.jar.
func classesOfAAR(t *testing.T, aar, dir string) string {
	t.Helper()
	zr, err := zip.OpenReader(aar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(aar), ".aar")+".jar")
	for _, f := range zr.File {
		if f.Name != "classes.jar" {
			continue
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		w, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, r); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Fatalf("%s has no classes.jar", aar)
	return ""
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func javaFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return err
	})
	return files
}

func cp(paths ...string) string { return strings.Join(paths, string(os.PathListSeparator)) }

// yes says a check's outcome as the summary line does.
func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// TestAndroidCheck: see the package comment. The last line it logs is
// "android-check: matrix_stack_methods=N unknown_ids=0 top_ms=N
// focus_calls=N/N systrace_balanced=yes".
func TestAndroidCheck(t *testing.T) {
	lib := os.Getenv("TRACEBEAT_ANDROID_CHECK")
	if lib == "" {
		t.Skip("the Android check runs from scripts/android-check.sh")
	}
	javatest.RequireJava(t)
	root := javatest.RepoRoot(t)
	work := t.TempDir()
	framework := filepath.Join(lib, androidAll)
	matrix := []string{classesOfAAR(t, filepath.Join(lib, matrixTrace), work), classesOfAAR(t, filepath.Join(lib, matrixLib), work)}
	var runtimeJars []string // Robolectric, JUnit and what they need; AARs as their classes
	entries, _ := filepath.Glob(filepath.Join(lib, "*"))
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e, ".aar") && !strings.Contains(e, "matrix-"):
			runtimeJars = append(runtimeJars, classesOfAAR(t, e, work))
		case strings.HasSuffix(e, ".jar") && !strings.HasPrefix(filepath.Base(e), "android-all") && !strings.Contains(filepath.Base(e), "gradle-api"):
			// Not the frameworks: Robolectric loads one of them per SDK.
			runtimeJars = append(runtimeJars, e)
		}
	}

	tool := filepath.Join(work, "tracebeat")
	run(t, "go", "build", "-o", tool, "github.com/tracebeat/tracebeat/cmd/tracebeat")
	appClasses := filepath.Join(work, "app-classes")
	run(t, "javac", append([]string{"--release", "17", "-nowarn", "-cp", framework, "-d", appClasses},
		javaFiles(t, filepath.Join(root, "testdata", "android", "app"))...)...)
	appJar := javatest.Jar(t, appClasses)
	instrumented := map[string]string{}
	for mode, flags := range map[string][]string{
		"beat":     {"--mode", "beat"},
		"systrace": {"--mode", "systrace"},
		"spy":      {"--beat-class", "tbcheck.FocusSpy"}, // counts at() and passes every call on to Matrix
	} {
		out := filepath.Join(work, mode)
		log := run(t, tool, append(append([]string{"instrument"}, flags...), "--classpath", framework, "-o", out, appJar)...)
		t.Logf("android-check: instrument --mode %s: %s", mode, strings.SplitN(log, "\n", 2)[0])
		instrumented[mode] = filepath.Join(out, filepath.Base(appJar))
	}
	testClasses := filepath.Join(work, "test-classes")
	run(t, "javac", append([]string{"--release", "17", "-nowarn", "-cp", cp(append(append([]string{framework, appJar}, matrix...), runtimeJars...)...),
		"-d", testClasses}, javaFiles(t, filepath.Join(root, "testdata", "android", "check"))...)...)

	files := map[string]string{}
	props := map[string]string{
		// Robolectric takes the framework from the jars Maven fetched.
		"robolectric.offline":        "true",
		"robolectric.dependency.dir": lib,
	}
	for _, f := range []string{"stack", "key", "focus", "out", "sections", "matrix", "raw", "plugin", "issue"} {
		files[f] = filepath.Join(work, f+".txt")
		props["tbcheck."+f] = files[f]
	}
	junit := func(mode, test string) string {
		jvm := javatest.JVM{
			// The framework last, as Android's unit tests have android.jar:
			// Robolectric's annotations name its types.
			Classpath: append(append(append([]string{testClasses, instrumented[mode]}, matrix...), runtimeJars...), framework),
			Props:     props,
			Timeout:   javatest.DefaultTimeout * 3,
		}
		stdout, stderr, err := jvm.Run(t, "org.junit.runner.JUnitCore", test)
		if err != nil {
			t.Fatalf("%s (%s): %v\n%s\n%s", test, mode, err, stdout, stderr)
		}
		return stdout
	}
	junit("beat", "tbcheck.AndroidCheckTest")
	junit("spy", "tbcheck.FocusCheckTest")
	junit("systrace", "tbcheck.SystraceCheckTest")
	junit("beat", "tbcheck.TracePluginCheckTest")
	runtimeLine := runtimeCheck(t, tool, work, testClasses, appJar, instrumented["beat"], framework, runtimeJars, props, "tbcheck.RuntimeCheckTest", true)
	t.Logf("android-check: tracebeat's runtime under Robolectric: %s", runtimeLine)
	line23 := runtimeCheck(t, tool, filepath.Join(work, "sdk23"), testClasses, appJar, instrumented["beat"], framework, runtimeJars, props, "tbcheck.RuntimeCheck23Test", false)
	t.Logf("android-check: tracebeat's runtime on Android 6.0's framework (API 23): %s", line23)
	runtimeLine += " sdk23_runtime=" + yes(!strings.Contains(line23, "=no"))
	runtimeLine += " " + linkCheck(t, lib)
	looperLine := looperCheck(t, tool, work, testClasses, appJar, instrumented["beat"], framework, filepath.Join(work, "tracebeat-runtime.jar"), runtimeJars, props)
	t.Logf("android-check: the main looper watched: %s", looperLine)
	startLine := startCheck(t, tool, work, testClasses, instrumented["beat"], framework, filepath.Join(work, "tracebeat-runtime.jar"), runtimeJars, props)
	t.Logf("android-check: started without a path: %s", startLine)
	streamLine := streamCheck(t, tool, work, testClasses, instrumented["beat"], framework, runtimeJars, props)
	t.Logf("android-check: streamed without a path: %s", streamLine)

	read := func(name string) string {
		data, err := os.ReadFile(files[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(data)
	}
	t.Logf("android-check: Matrix under Robolectric: %s", strings.TrimSpace(read("matrix")))
	for _, l := range strings.Split(strings.TrimSpace(read("plugin")), "\n") {
		t.Logf("android-check: TracePlugin: %s", l)
	}
	var res Result
	res.SystraceBalanced = checkSections(t, read("sections"))
	res.FocusCalls, res.FocusChanges = checkFocus(t, read("focus"))
	methodMap := filepath.Join(work, "beat", "methodMapping.txt")
	stack := read("stack")
	t.Logf("android-check: Matrix's stack (TraceDataUtils.structuredDataToStack + trimStack), stackKey %s, app said %s", strings.TrimSpace(read("key")), strings.TrimSpace(read("out")))
	decoded := exec.Command(tool, "decode", "--map", methodMap, files["stack"])
	out, err := decoded.Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, stderr)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		t.Logf("android-check: | %s", l)
	}
	res.StackMethods, res.UnknownIDs, res.TopMs = checkStack(t, stack, string(out), stderr)
	// The key decode gives the stack is the one Matrix's getTreeKey gave it.
	if m := regexp.MustCompile(`stackKey (\S+)`).FindSubmatch(out); m == nil || string(m[1]) != strings.TrimSpace(read("key")) {
		t.Errorf("decode's stack key %q is not Matrix's %q", m, strings.TrimSpace(read("key")))
	}

	// Matrix's own report of the slow message, from its EvilMethodTracer.
	if strings.TrimSpace(read("issue")) == "" {
		t.Errorf("Matrix's EvilMethodTracer reported no Trace_EvilMethod issue for the 800 ms message")
	} else {
		issue := exec.Command(tool, "decode", "--map", methodMap, files["issue"])
		out, err := issue.Output()
		stderr = ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		if err != nil {
			t.Fatalf("decode of Matrix's issue: %v\n%s", err, stderr)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			t.Logf("android-check: Trace_EvilMethod | %s", l)
		}
		if strings.Contains(string(out), "<unknown id") || strings.Contains(stderr, "not in the map") {
			res.UnknownIDs++
			t.Errorf("Matrix's issue has ids the map lacks:\n%s%s", out, stderr)
		}
		if !regexp.MustCompile(`800 ms\s+1\s+tbapp\.Work\$1\.run\(\)V`).Match(out) {
			t.Errorf("Matrix's issue does not name the 800 ms message's method with its 800 ms")
		}
	}
	line := "android-check: " + res.Line() + " " + runtimeLine + " " + looperLine + " " + startLine + " " + streamLine
	t.Log(line)
	if res.UnknownIDs != 0 || res.TopMs < 800 || res.FocusCalls != res.FocusChanges || !res.SystraceBalanced || res.StackMethods == 0 {
		t.Errorf("%s", line)
	}
}

// checkSections reads SystraceCheckTest's "step previous open" lines:
// balanced when every step left no section open.
func checkSections(t *testing.T, text string) bool {
	t.Helper()
	ok := strings.TrimSpace(text) != ""
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(l)
		t.Logf("android-check: systrace after %s: %s sections ended, %s open", strings.Join(f[:len(f)-2], " "), f[len(f)-2], f[len(f)-1])
		if f[len(f)-1] != "0" {
			ok = false
		}
	}
	return ok
}

// checkFocus reads FocusCheckTest's "activity hasFocus at-calls
// listener-calls" lines: each change must reach AppMethodBeat.at exactly
// once, and Matrix's listener must hear each Activity's first focus.
func checkFocus(t *testing.T, text string) (calls, changes int) {
	t.Helper()
	firstHeard := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(l)
		n, _ := strconv.Atoi(f[2])
		heard, _ := strconv.Atoi(f[3])
		t.Logf("android-check: focus %s %s -> AppMethodBeat.at x%d, Matrix's listener x%d", f[0], f[1], n, heard)
		changes++
		if n == 1 {
			calls++
		} else {
			t.Errorf("%s focus %s reached AppMethodBeat.at %d times, want once", f[0], f[1], n)
		}
		if heard > 0 {
			firstHeard[f[0]] = true
		}
	}
	if len(firstHeard) != changes/3 {
		t.Errorf("Matrix's listener heard the first focus of %d Activities, want %d", len(firstHeard), changes/3)
	}
	return calls, changes
}

var stackLine = regexp.MustCompile(`^(\d+),(\d+),(\d+),(\d+)$`)

// checkStack checks Matrix's stack against what ran: ids the map knows,
// depths that nest (each line at most one deeper than the one before), and
// the slow message's method on top with its 800 ms. It returns the number
// of methods, of unknown ids, and the top method's cost.
func checkStack(t *testing.T, stack, decoded, stderr string) (methods, unknown, topMs int) {
	t.Helper()
	prev := -1
	for _, l := range strings.Split(strings.TrimSpace(stack), "\n") {
		m := stackLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not a Matrix stack line: %q", l)
			continue
		}
		depth, _ := strconv.Atoi(m[1])
		cost, _ := strconv.Atoi(m[4])
		if depth > prev+1 {
			t.Errorf("stack line %q is %d deeper than the one before", l, depth-prev)
		}
		if depth == 0 && cost > topMs {
			topMs = cost
		}
		prev = depth
		methods++
	}
	if m := regexp.MustCompile(`(\d+) method ids? not in the map`).FindStringSubmatch(stderr); m != nil {
		unknown, _ = strconv.Atoi(m[1])
	}
	if strings.Contains(decoded, "<unknown id") {
		unknown = max(unknown, 1)
	}
	if !strings.Contains(decoded, "tbapp.Work$1.run()V") || !strings.Contains(decoded, "tbapp.Work.slowWork(J)J") {
		t.Errorf("the slow message's methods are not in the decoded stack")
	}
	return methods, unknown, topMs
}
