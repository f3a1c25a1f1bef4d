package moderngate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// The versions testdata/modern/pom.xml pins.
const (
	kotlinVersion     = "2.4.21"
	compilerJar       = "kotlin-compiler-embeddable-" + kotlinVersion + ".jar"
	coroutinesJar     = "kotlinx-coroutines-core-jvm-1.11.0.jar"
	composeRuntimeJar = "runtime-desktop-1.12.1.jar" // androidx's: org.jetbrains.compose's runtime-desktop 1.12.2 only points to it
)

// gateLibraries are the Maven Central jars the gate instruments.
var gateLibraries = []struct{ jar, what string }{
	{"kotlin-stdlib-" + kotlinVersion + ".jar", "Kotlin 2 standard library"},
	{"kotlin-reflect-" + kotlinVersion + ".jar", "Kotlin reflection"},
	{coroutinesJar, "kotlinx.coroutines"},
	{"kotlinx-serialization-core-jvm-1.12.0.jar", "kotlinx.serialization core"},
	{"kotlinx-serialization-json-jvm-1.12.0.jar", "kotlinx.serialization JSON"},
	{"okio-jvm-3.18.2.jar", "Okio 3"},
	{"okhttp-jvm-5.5.1.jar", "OkHttp 5"},
	{"mockwebserver3-5.5.1.jar", "MockWebServer 3"},
	{"retrofit-3.0.0.jar", "Retrofit 3"},
	{"converter-moshi-3.0.0.jar", "Retrofit's Moshi converter"},
	{"moshi-1.15.2.jar", "Moshi"},
	{"moshi-kotlin-1.15.2.jar", "Moshi Kotlin"},
	{"ktor-client-core-jvm-3.6.1.jar", "Ktor client"},
	{"ktor-utils-jvm-3.6.1.jar", "Ktor utils"},
	{"ktor-io-jvm-3.6.1.jar", "Ktor I/O"},
	{composeRuntimeJar, "Compose runtime (desktop)"},
	{"collection-jvm-1.5.0.jar", "androidx collection (Compose)"},
	{compilerJar, "the Kotlin 2 compiler"},
}

// configs are the instrumentation settings every jar goes through.
var configs = []struct {
	name  string
	flags []string
	stub  string // the runtime stand-in its code calls: beat or systrace
}{
	{"default", nil, "beat"},
	{"trace-all", []string{"--trace-all"}, "beat"},
	{"systrace", []string{"--trace-all", "--mode", "systrace"}, "systrace"},
}

var cannotParse = regexp.MustCompile(`: (\S+\.class): cannot parse, copied untouched: (.*)$`)

// TestModernGate: every class HotSpot (Temurin 25, -Xverify:all) accepted
// before instrumentation it accepts after, in every config; no class it
// accepts is left unread; and the programs run from the instrumented jars
// print what they print without, with every call closed.
func TestModernGate(t *testing.T) {
	lib := os.Getenv("TRACEBEAT_MODERN_GATE")
	if lib == "" {
		t.Skip("the modern gate runs from scripts/modern-gate.sh")
	}
	java25 := os.Getenv("TRACEBEAT_JAVA25")
	if _, err := os.Stat(filepath.Join(java25, "bin", "java")); err != nil {
		t.Fatalf("TRACEBEAT_JAVA25=%q: no JDK 25 there", java25)
	}
	javatest.RequireJava(t)
	start := time.Now()
	root := javatest.RepoRoot(t)
	work := t.TempDir()
	tc := toolchain{lib: lib, java25: java25, work: work}
	for _, l := range gateLibraries {
		if _, err := os.Stat(tc.jar(l.jar)); err != nil {
			t.Fatalf("%s: %v (scripts/modern-gate.sh fetches it)", l.jar, err)
		}
	}
	tool := os.Getenv("TRACEBEAT_GATE_TOOL") // another build to measure, such as an earlier release
	if tool == "" {
		tool = filepath.Join(work, "tracebeat")
		if out, err := exec.Command("go", "build", "-o", tool, "github.com/tracebeat/tracebeat/cmd/tracebeat").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	fx := tc.buildFixtures(t, root)
	t.Logf("modern-gate: fixtures built in %.0f s", time.Since(start).Seconds())

	type gateJar struct {
		path, what string
		group      string // instrumented together with the jars of the same group
		deps       []string
	}
	libs := tc.libraryJars()
	var jars []gateJar
	for _, l := range gateLibraries {
		jars = append(jars, gateJar{tc.jar(l.jar), l.what, "main", nil})
	}
	jars = append(jars,
		gateJar{fx.kotlinIndy, "Kotlin 2 fixtures (invokedynamic lambdas)", "main", nil},
		gateJar{fx.kotlinClass, "Kotlin 2 fixtures (-Xlambdas=class)", "class-lambdas", nil},
		gateJar{fx.compose, "a headless composition (Compose compiler plugin)", "main", nil},
		gateJar{fx.java21, "Java 21 fixtures (javac 25 --release 21)", "main", nil},
		gateJar{fx.java25, "Java 25 fixtures (javac 25 --release 25)", "main", []string{fx.java21}},
		gateJar{fx.release, "a multi-release jar (jar 25)", "main", nil},
		gateJar{fx.client, "an OkHttp + Retrofit + Moshi client", "main", nil},
		gateJar{fx.obfuscated, "the coroutine program through ProGuard 7", "proguard", nil},
	)
	jvm := javatest.JVM{Java: filepath.Join(java25, "bin", "java"), Flags: []string{"-Xverify:all"}, Timeout: 15 * time.Minute}
	stubs := map[string]string{
		"beat":     javatest.Jar(t, javatest.BeatStub(t)),
		"systrace": javatest.Jar(t, javatest.SystraceStub(t)),
	}
	depsOf := func(j gateJar) []string {
		var deps []string
		for _, l := range libs {
			if l != j.path {
				deps = append(deps, l)
			}
		}
		return append(deps, j.deps...)
	}

	before := map[string]javatest.VerifyResult{}
	classes := 0
	for _, j := range jars {
		before[j.path] = javatest.VerifyWith(t, jvm, j.path, depsOf(j)...)
		classes += len(before[j.path].Classes)
	}
	t.Logf("modern-gate: originals verified in %.0f s", time.Since(start).Seconds())

	outputs := map[string]string{} // config/jar -> instrumented jar
	var newVerify, newFailover, unread, failing int
	for _, c := range configs {
		groups := map[string][]string{}
		for _, j := range jars {
			groups[j.group] = append(groups[j.group], j.path)
		}
		unparsed := map[string]string{}
		for _, g := range sortedKeys(groups) {
			out := filepath.Join(work, "out", c.name, g)
			args := append([]string{"instrument", "--log-level", "warn", "--workers", "2", "-o", out}, c.flags...)
			if g == "proguard" {
				args = append(args, "--mapping", fx.mapping)
			}
			cmd := exec.Command(tool, append(args, groups[g]...)...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: tracebeat %v: %v\n%s", c.name, args, err, stderr.String())
			}
			for _, line := range strings.Split(stderr.String(), "\n") {
				if m := cannotParse.FindStringSubmatch(line); m != nil {
					unparsed[strings.TrimSuffix(m[1], ".class")] = m[2]
				}
			}
			for _, in := range groups[g] {
				outputs[c.name+"/"+in] = filepath.Join(out, filepath.Base(in))
			}
		}
		for _, j := range jars {
			b := before[j.path]
			after := javatest.VerifyWith(t, jvm, outputs[c.name+"/"+j.path], append(depsOf(j), stubs[c.stub])...)
			if j.path == fx.release {
				// Java 25 loads META-INF/versions/25; the root version is
				// what Java 17 loads: verified there too.
				b17 := javatest.VerifyWith(t, javatest.JVM{Flags: []string{"-Xverify:all"}}, j.path)
				a17 := javatest.VerifyWith(t, javatest.JVM{Flags: []string{"-Xverify:all"}}, outputs[c.name+"/"+j.path], stubs[c.stub])
				t.Logf("modern-gate: config=%s jar=%s on Java 17 (the root version): ok_before=%d ok_after=%d", c.name, filepath.Base(j.path), len(b17.OK), len(a17.OK))
				if cmp17 := javatest.Compare(b17, a17, unparsed); len(b17.OK) == 0 || cmp17.Failed() {
					failing++
					t.Errorf("%s %s on Java 17: %s", c.name, j.path, a17)
				}
			}
			cmp := javatest.Compare(b, after, unparsed)
			newVerify += cmp.NewVerifyErrors
			newFailover += cmp.NewFailovers
			unread += len(cmp.Unread)
			t.Logf("modern-gate: config=%s jar=%s (%s) classes=%d ok_before=%d ok_after=%d new_verify_errors=%d new_failovers=%d unread=%d",
				c.name, filepath.Base(j.path), j.what, len(b.Classes), len(b.OK), len(after.OK), cmp.NewVerifyErrors, cmp.NewFailovers, len(cmp.Unread))
			if cmp.Failed() {
				failing++
				t.Errorf("%s %s: %d classes HotSpot accepted before fail after, %d valid classes were not read:\n  %s",
					c.name, j.path, len(cmp.Lost), len(cmp.Unread), cmp.Details(20))
			}
		}
		t.Logf("modern-gate: config %s done at %.0f s", c.name, time.Since(start).Seconds())
	}

	checkProGuardMap(t, tool, outputs["default/"+fx.obfuscated], filepath.Join(work, "out", "default", "proguard"), fx.mapping)

	instrumented := func(config string) func(string) string {
		return func(jar string) string {
			if o, ok := outputs[config+"/"+jar]; ok {
				return o
			}
			return jar
		}
	}
	passed, programs := runPrograms(t, tc, fx, stubs, instrumented)
	t.Logf("modern-gate: programs done at %.0f s", time.Since(start).Seconds())
	line := fmt.Sprintf("modern-gate: jars=%d classes=%d configs=%d new_verify_errors=%d new_failovers=%d unread=%d programs=%d/%d seconds=%.0f",
		len(jars), classes, len(configs), newVerify, newFailover, unread, passed, programs, time.Since(start).Seconds())
	t.Log(line)
	if failing > 0 || passed != programs {
		t.Errorf("%s", line)
	}
}

// checkProGuardMap: the map of the ProGuard build names the original
// Kotlin methods, and check --jar --mapping finds the jar and map agree.
func checkProGuardMap(t *testing.T, tool, jar, outDir, mapping string) {
	t.Helper()
	methodMap := filepath.Join(outDir, "methodMapping.txt")
	data, err := os.ReadFile(methodMap)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"modern.kt.CoroutinesKt failing (IILkotlin.coroutines.Continuation;)Ljava.lang.Object;", "modern.kt.CoroutinesKt weigh "} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the ProGuard build's map lacks the original name %q", want)
		}
	}
	out, err := exec.Command(tool, "check", "--map", methodMap, "--jar", jar, "--mapping", mapping).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "violations=0") {
		t.Errorf("check --jar %s --mapping: %v\n%s", jar, err, out)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
