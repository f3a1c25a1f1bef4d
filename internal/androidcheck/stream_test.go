package androidcheck

import (
	"bufio"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// streamCheck runs StreamCheckTest with a runtime jar that carries
// mode=stream and flush=50ms (`tracebeat runtime --android --set`), and no
// system property of tracebeat's, as an app started from the launcher: the
// stream is in the app's files folder while the app runs, and holds every
// call from the app's first traced one (made before the runtime found the
// folder). It returns "stream_in_files_dir=yes stream_from_start=yes".
func streamCheck(t *testing.T, tool, work, testClasses, instrumented, framework string, runtimeJars []string, props map[string]string) string {
	t.Helper()
	rt := filepath.Join(work, "tracebeat-runtime-stream.jar")
	run(t, tool, "runtime", "--android", "--set", "mode=stream", "--set", "flush=50ms", "-o", rt)
	p := maps.Clone(props)
	report := filepath.Join(work, "stream.txt")
	p["tbcheck.stream"] = report
	jvm := javatest.JVM{Classpath: append(append([]string{testClasses, instrumented, rt}, runtimeJars...), framework), Props: p, Timeout: javatest.DefaultTimeout * 3}
	stdout, stderr, err := jvm.Run(t, "org.junit.runner.JUnitCore", "tbcheck.StreamCheckTest")
	if err != nil {
		t.Fatalf("StreamCheckTest: %v\n%s\n%s", err, stdout, stderr)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	path := strings.SplitN(string(data), "\n", 2)[0]
	sep := string(filepath.Separator)
	inFiles := strings.Contains(path, sep+"files"+sep+"tracebeat"+sep)
	copied := report + ".trace"
	f, err := os.Open(copied)
	if err != nil {
		t.Fatalf("no stream in the app's files folder (%s): %v\n%s", path, err, stderr)
	}
	rec, err := recording.Read(bufio.NewReader(f), copied)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Kind != recording.KindStream || rec.TimeSource != recording.TimeBoot {
		inFiles = false
		t.Errorf("%s: kind %d, time source %d; want a stream (%d) on the boot clock (%d)", path, rec.Kind, rec.TimeSource, recording.KindStream, recording.TimeBoot)
	}
	methodMap := filepath.Join(filepath.Dir(instrumented), "methodMapping.txt")
	calls := map[string]int{}
	total := 0
	for _, e := range decodedSlices(t, tool, methodMap, copied, filepath.Join(work, "stream.json")) {
		calls[e.Name]++
		total++
	}
	first := calls["tbapp.Work.postSlowMessage(Ljava.lang.StringBuilder;)V"]
	fromStart := first == 2 && calls["tbapp.Work.slowWork(J)J"] == 2
	if !fromStart {
		t.Errorf("the stream copied while the app ran holds %d calls of postSlowMessage (the app's first traced call) and %d of slowWork, want 2 and 2", first, calls["tbapp.Work.slowWork(J)J"])
	}
	t.Logf("android-check: stream: %s, %d calls of %d methods and sections while the app ran", path, total, len(calls))
	return "stream_in_files_dir=" + yes(inFiles) + " stream_from_start=" + yes(fromStart)
}
