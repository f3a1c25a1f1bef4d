package widegate

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// gateJars are the jars of the gate: each a toolchain the lab corpus
// lacks, with the Debian package that installs it.
var gateJars = []struct {
	path, pkg, what string
	deps            []string // jars its classes link against
}{
	{"/usr/share/java/scala-library-2.11.12.jar", "scala", "Scala 2.11 (class version 50)", nil},
	{"/usr/share/java/scala-xml_2.11-1.0.3.jar", "scala", "a Scala 2.11 library", []string{"/usr/share/java/scala-library-2.11.12.jar"}},
	{"/usr/share/java/clojure-1.11.1.jar", "libclojure-java", "Clojure's own compiler output", nil},
	{"/usr/share/java/javacc-7.0.12.jar", "javacc", "JavaCC, with its JavaCC-generated parser", nil},
	{"/usr/share/java/antlr4.jar", "antlr4", "ANTLR 4, with its ANTLR-generated parsers", []string{
		"/usr/share/java/antlr4-runtime.jar", "/usr/share/java/antlr3-runtime.jar", "/usr/share/java/icu4j.jar",
		"/usr/share/java/stringtemplate4.jar", "/usr/share/java/treelayout.jar"}},
	{"/usr/share/java/antlr4-runtime.jar", "antlr4", "ANTLR 4 runtime", nil},
	{"/usr/share/java/antlr-2.7.7.jar", "libantlr-java", "ANTLR 2", nil},
	{"/usr/share/java/jython-2.7.3.jar", "jython", "Jython (class versions 49 and 50)", nil},
}

var modes = []struct {
	name  string
	flags []string
}{
	{"default", nil},
	{"trace-all", []string{"--trace-all"}},
	{"systrace", []string{"--trace-all", "--mode", "systrace"}},
}

var cannotParse = regexp.MustCompile(`: (\S+\.class): cannot parse, copied untouched: (.*)$`)

// TestWideGate: for every jar and mode, every class HotSpot accepted
// before instrumentation it accepts after (no new VerifyError, no new
// failover to the old verifier, no new link error), and every class the
// parser could not read is one HotSpot rejects too.
func TestWideGate(t *testing.T) {
	if os.Getenv("TRACEBEAT_WIDE_GATE") == "" {
		t.Skip("the wide gate runs from scripts/wide-gate.sh")
	}
	javatest.RequireJava(t)
	for _, j := range gateJars {
		for _, p := range append([]string{j.path}, j.deps...) {
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("%s missing: apt-get install %s", p, j.pkg)
			}
		}
	}
	work := t.TempDir()
	tool := filepath.Join(work, "tracebeat")
	build := exec.Command("go", "build", "-o", tool, "github.com/tracebeat/tracebeat/cmd/tracebeat")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	stubs := []string{javatest.Jar(t, javatest.BeatStub(t)), javatest.Jar(t, javatest.SystraceStub(t))}

	before := map[string]javatest.VerifyResult{}
	for _, j := range gateJars {
		before[j.path] = javatest.Verify(t, j.path, j.deps...)
	}
	failures := 0
	total := 0
	for _, m := range modes {
		out := filepath.Join(work, m.name)
		args := append([]string{"instrument", "--log-level", "warn", "--workers", "2", "-o", out}, m.flags...)
		for _, j := range gateJars {
			args = append(args, j.path)
		}
		cmd := exec.Command(tool, args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: tracebeat %v: %v\n%s", m.name, args, err, stderr.String())
		}
		unparsed := map[string]string{}
		for _, line := range strings.Split(stderr.String(), "\n") {
			if g := cannotParse.FindStringSubmatch(line); g != nil {
				unparsed[strings.TrimSuffix(g[1], ".class")] = g[2]
			}
		}
		for _, j := range gateJars {
			b := before[j.path]
			after := javatest.Verify(t, filepath.Join(out, filepath.Base(j.path)), append(stubs, j.deps...)...)
			c := javatest.Compare(b, after, unparsed)
			t.Logf("wide-gate: mode=%s jar=%s (%s) classes=%d ok_before=%d ok_after=%d new_verify_errors=%d new_failovers=%d new_link_errors=%d unparsed_but_valid=%d",
				m.name, filepath.Base(j.path), j.what, len(b.Classes), len(b.OK), len(after.OK), c.NewVerifyErrors, c.NewFailovers, c.NewLinkErrors, len(c.Unread))
			total += len(b.Classes)
			if c.Failed() {
				failures++
				t.Errorf("%s %s: %d classes HotSpot accepted before fail after, %d valid classes could not be read:\n  %s",
					m.name, j.path, len(c.Lost), len(c.Unread), c.Details(20))
			}
		}
	}
	t.Logf("wide-gate: jars=%d modes=%d classes_verified=%d failing=%d", len(gateJars), len(modes), total, failures)
}
