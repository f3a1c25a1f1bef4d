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

// startCheck runs StartCheckTest: the beat-instrumented app on tracebeat's
// runtime with no tracebeat.trace, as the launcher starts an app. The
// runtime must find the app's files folder, say so on stderr, and answer
// two dump requests made while the app runs with recordings there, the
// second holding the first's calls and the ones made since. It returns
// "files_dir=yes dumps=2 broadcast_dump=yes recording_goes_on=yes" (the
// first dump asked for by a file, the second by the broadcast).
func startCheck(t *testing.T, tool, work, testClasses, instrumented, framework, rt string, runtimeJars []string, props map[string]string) string {
	t.Helper()
	p := maps.Clone(props)
	report := filepath.Join(work, "start.txt")
	p["tbcheck.start"] = report
	jvm := javatest.JVM{Classpath: append(append([]string{testClasses, instrumented, rt}, runtimeJars...), framework), Props: p, Timeout: javatest.DefaultTimeout * 3}
	stdout, stderr, err := jvm.Run(t, "org.junit.runner.JUnitCore", "tbcheck.StartCheckTest")
	if err != nil {
		t.Fatalf("StartCheckTest: %v\n%s\n%s", err, stdout, stderr)
	}
	said := ""
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "tracebeat: recording; reports and dumps go to ") {
			said = l
			t.Logf("android-check: start: %s", l)
		}
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 2 {
		t.Fatalf("StartCheckTest wrote %q", data)
	}
	filesDir := said != "" && strings.Contains(lines[0], string(filepath.Separator)+"files"+string(filepath.Separator)+"tracebeat"+string(filepath.Separator))
	if !filesDir {
		t.Errorf("the dump %s is not in the app's files folder, or the runtime did not say where it records (stderr %q; want .../files/tracebeat/...)", lines[0], said)
	}
	methodMap := filepath.Join(filepath.Dir(instrumented), "methodMapping.txt")
	var calls []int
	for i, l := range lines[:2] {
		if strings.HasPrefix(l, "no dump ") {
			t.Errorf("StartCheckTest: %s (want a dump answered while the app runs)", l)
			continue
		}
		dump := report + "-" + strconv.Itoa(i+1) + ".trace" // the test's copy
		f, err := os.Open(dump)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := recording.Read(bufio.NewReader(f), dump)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rec.TimeSource != recording.TimeBoot {
			t.Errorf("%s: time source %d, want the boot clock", dump, rec.TimeSource)
		}
		n := 0
		for _, e := range decodedSlices(t, tool, methodMap, dump, filepath.Join(work, filepath.Base(dump)+".json")) {
			if e.Name == "tbapp.Work.slowWork(J)J" {
				n++
			}
		}
		calls = append(calls, n)
	}
	goesOn := len(calls) == 2 && calls[0] >= 1 && calls[1] > calls[0]
	if !goesOn {
		t.Errorf("slowWork's calls in the two dumps: %v, want the second to hold more (the recording goes on after a dump)", calls)
	}
	dumps := 0
	for _, l := range lines[:2] {
		if !strings.HasPrefix(l, "no dump ") {
			dumps++
		}
	}
	broadcast := !strings.HasPrefix(lines[1], "no dump ") // the second was asked for by the broadcast
	return "files_dir=" + yes(filesDir) + " dumps=" + strconv.Itoa(dumps) + " broadcast_dump=" + yes(broadcast) + " recording_goes_on=" + yes(goesOn)
}
