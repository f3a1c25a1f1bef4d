package moderngate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// program is a real program of the gate: its class path (original jars),
// main class and arguments, and for a compiler the folder it writes.
type program struct {
	name      string
	classpath []string
	main      string
	args      func(outDir string) []string
	writes    bool // compares the files written to outDir too
	java17    bool // runs on the JDK on PATH (17), not on Temurin 25
}

// runPrograms runs each program on Temurin 25 from the original jars, then
// from the instrumented ones with the counting runtime stand-in (beat or
// systrace), and requires the same output, calls counted, no exit that
// closed another method's entry, and nothing left open on a thread that
// had ended. It returns how many passed of how many.
func runPrograms(t *testing.T, tc toolchain, fx fixtures, stubs map[string]string, instrumented func(config string) func(string) string) (int, int) {
	t.Helper()
	kt := tc.jars("kotlin-stdlib-"+kotlinVersion+".jar", coroutinesJar)
	none := func(string) []string { return nil }
	programs := []struct {
		program
		config string
	}{
		{program{"coroutines (invokedynamic lambdas)", append([]string{fx.kotlinIndy}, kt...), "modern.kt.CoroutinesKt", none, false, false}, "default"},
		{program{"coroutines (invokedynamic lambdas)", append([]string{fx.kotlinIndy}, kt...), "modern.kt.CoroutinesKt", none, false, false}, "systrace"},
		{program{"coroutines (-Xlambdas=class)", append([]string{fx.kotlinClass}, kt...), "modern.kt.CoroutinesKt", none, false, false}, "default"},
		{program{"coroutines (ProGuard 7)", append([]string{fx.obfuscated}, kt...), "modern.kt.CoroutinesKt", none, false, false}, "default"},
		{program{"Kotlin shapes", append([]string{fx.kotlinIndy}, kt...), "modern.kt.ShapesKt", none, false, false}, "default"},
		{program{"OkHttp + Retrofit + Moshi against MockWebServer", append([]string{fx.client}, tc.libraryJars()...), "modern.client.Client", none, false, false}, "default"},
		{program{"Compose runtime, headless", append([]string{fx.compose}, append(tc.jars(composeRuntimeJar, "runtime-annotation-jvm-1.12.1.jar",
			"collection-jvm-1.5.0.jar", "annotation-jvm-1.9.1.jar"), kt...)...), "modern.compose.HeadlessKt", none, false, false}, "default"},
		{program{"Java 25: 10,000 virtual threads, pattern switches", []string{fx.java25, fx.java21}, "modern.j25.Virtual", none, false, false}, "default"},
		{program{"Java 25: 10,000 virtual threads, pattern switches", []string{fx.java25, fx.java21}, "modern.j25.Virtual", none, false, false}, "systrace"},
		{program{"multi-release jar on Java 25", []string{fx.release}, "modern.mr.Version", none, false, false}, "default"},
		{program{"multi-release jar on Java 17 (its root version)", []string{fx.release}, "modern.mr.Version", none, false, true}, "default"},
		{program{"the Kotlin 2 compiler compiling a fixture", tc.kotlinCompiler(), "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler",
			func(out string) []string {
				return []string{"-no-stdlib", "-no-reflect", "-jvm-target", "17", "-classpath", cp(kt...), "-d", out, fx.shapesSource}
			}, true, false}, "default"},
	}
	passed := 0
	for i, p := range programs {
		dir := t.TempDir()
		plainOut, tracedOut := filepath.Join(dir, "plain"), filepath.Join(dir, "traced")
		plain := javatest.JVM{Java: filepath.Join(tc.java25, "bin", "java"), Classpath: p.classpath, Timeout: 10 * time.Minute}
		if p.java17 {
			plain.Java = ""
		}
		want, stderr, err := plain.Run(t, p.main, p.args(plainOut)...)
		if err != nil {
			t.Errorf("%s: the original fails: %v\n%s", p.name, err, stderr)
			continue
		}
		var traced javatest.JVM
		if p.config == "systrace" {
			traced = javatest.SystraceStubJVM(t)
		} else {
			traced = javatest.BeatStubJVM(t)
		}
		traced.Java, traced.Timeout = plain.Java, plain.Timeout
		for _, jar := range p.classpath {
			traced.Classpath = append(traced.Classpath, instrumented(p.config)(jar))
		}
		start := time.Now()
		got, stderr, err := traced.Run(t, p.main, p.args(tracedOut)...)
		took := time.Since(start)
		ok := err == nil && got == want
		if err != nil {
			t.Errorf("%s (%s): the instrumented run fails: %v\n%s", p.name, p.config, err, tail(stderr))
		} else if got != want {
			t.Errorf("%s (%s): output differs\nwant:\n%s\ngot:\n%s", p.name, p.config, want, got)
		}
		var counted string
		if p.config == "systrace" {
			r, rerr := javatest.ParseTraceReport(stderr)
			ok = ok && rerr == nil && r.Begin > 0 && r.Unmatched == 0 && r.OpenEnded == 0
			counted = stderrLine(stderr, "tracestub:")
			if rerr != nil || r.Begin == 0 || r.Unmatched != 0 || r.OpenEnded != 0 {
				t.Errorf("%s (%s): sections not balanced: %+v %v", p.name, p.config, r, rerr)
			}
		} else {
			r, rerr := javatest.ParseStubReport(stderr)
			ok = ok && rerr == nil && r.Enter > 0 && r.Mismatched == 0 && r.OpenEnded == 0
			counted = stderrLine(stderr, "beatstub:")
			if rerr != nil || r.Enter == 0 || r.Mismatched != 0 || r.OpenEnded != 0 {
				t.Errorf("%s (%s): calls not balanced: %+v %v", p.name, p.config, r, rerr)
			}
		}
		if p.writes && err == nil {
			if diff := sameFiles(t, plainOut, tracedOut); diff != "" {
				ok = false
				t.Errorf("%s: what the instrumented compiler wrote differs: %s", p.name, diff)
			}
		}
		if ok {
			passed++
		}
		t.Logf("modern-gate: program %d %q config=%s ok=%v seconds=%.1f %s", i+1, p.name, p.config, ok, took.Seconds(), counted)
	}
	return passed, len(programs)
}

// sameFiles compares two trees byte for byte; "" when they are equal.
func sameFiles(t *testing.T, a, b string) string {
	t.Helper()
	read := func(root string) map[string][]byte {
		files := map[string][]byte{}
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				files[rel], _ = os.ReadFile(p)
			}
			return err
		})
		return files
	}
	fa, fb := read(a), read(b)
	if len(fa) == 0 {
		return "the original wrote nothing"
	}
	if len(fa) != len(fb) {
		return "another number of files"
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			return name + " differs"
		}
	}
	return ""
}

func stderrLine(stderr, prefix string) string {
	for _, l := range bytes.Split([]byte(stderr), []byte("\n")) {
		if bytes.HasPrefix(l, []byte(prefix)) {
			return string(l)
		}
	}
	return ""
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}
