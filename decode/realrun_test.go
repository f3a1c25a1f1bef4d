package decode

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Tests that run Java: the runtime stand-ins in testdata/runtime write what
// a device would record, and testdata/program is a fixture with a known
// call structure.

const stubCheckMap = `1,1,check.A first ()V
2,1,check.A second ()V
3,1,check.A third ()V
4,1,check.A fourth ()V
`

func needJava(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH", tool)
		}
	}
}

// javac compiles every .java file under the source dirs into out.
func javac(t *testing.T, out string, classpath string, sourceDirs ...string) {
	t.Helper()
	var files []string
	for _, dir := range sourceDirs {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".java") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"-d", out, "-encoding", "UTF-8"}
	if classpath != "" {
		args = append(args, "-cp", classpath)
	}
	cmd := exec.Command("javac", append(args, files...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
}

func runStubCheck(t *testing.T, classes string, extra ...string) (beat, trace string) {
	t.Helper()
	dir := t.TempDir()
	beat, trace = filepath.Join(dir, "beat.bin"), filepath.Join(dir, "trace.txt")
	args := append([]string{"-Dtracebeat.beat.out=" + beat, "-Dtracebeat.trace.out=" + trace}, extra...)
	args = append(args, "-cp", classes, "StubCheck")
	if msg, err := exec.Command("java", args...).CombinedOutput(); err != nil {
		t.Fatalf("java: %v\n%s", err, msg)
	}
	return beat, trace
}

func TestRuntimeStubsWriteWhatDecodeReads(t *testing.T) {
	t.Parallel()
	needJava(t)
	classes := t.TempDir()
	javac(t, classes, "", "testdata/runtime")
	javac(t, classes, classes, "testdata/stubcheck")
	names, err := ReadMethodNames(strings.NewReader(stubCheckMap), "stubCheckMap")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("AppMethodBeat buffer", func(t *testing.T) {
		beat, _ := runStubCheck(t, classes)
		data, err := os.ReadFile(beat)
		if err != nil {
			t.Fatal(err)
		}
		rr, order, err := NewBinaryRecordReader(bytes.NewReader(data), nil, names)
		if err != nil {
			t.Fatal(err)
		}
		if order != binary.BigEndian {
			t.Errorf("guessed %v, the stub writes big-endian", order)
		}
		recs, err := readAll(t, rr)
		if err != nil {
			t.Fatal(err)
		}
		frames, st, err := pairAll(t, recs)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range frames {
			got = append(got, frameShape(f))
		}
		// 7 (other thread) and METHOD_ID_MAX are not recorded.
		want := []string{"2@1", "3@1", "1@0", "4@0 unclosed"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("frames %v, want %v", got, want)
		}
		if st.Records != 7 {
			t.Errorf("%d records, want 7", st.Records)
		}
		if frames[0].Cost() < 5 {
			t.Errorf("second() slept 5 ms but costs %d ms", frames[0].Cost())
		}
	})

	t.Run("AppMethodBeat ring buffer", func(t *testing.T) {
		// A ring of 4 keeps i(3) o(3) o(1) i(4): first()'s enter is lost.
		beat, _ := runStubCheck(t, classes, "-Dtracebeat.beat.capacity=4")
		f, err := os.Open(beat)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var out bytes.Buffer
		res, err := Decode(f, &out, Options{Names: names, Format: FormatJSON})
		if err != nil {
			t.Fatal(err)
		}
		events := validateTraceJSON(t, out.Bytes())
		checkPreorderNesting(t, events)
		got := namesOfPhase(events, "X")
		want := []string{"check.A.first()V", "check.A.third()V", "check.A.fourth()V"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("slices %v, want %v", got, want)
		}
		if len(res.Notes) != 2 {
			t.Errorf("notes %v, want wrap and unclosed", res.Notes)
		}
	})

	t.Run("android.os.Trace dump", func(t *testing.T) {
		_, trace := runStubCheck(t, classes)
		data, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		var ftrace bytes.Buffer
		res, err := Decode(bytes.NewReader(data), &ftrace, Options{Names: names})
		if err != nil {
			t.Fatal(err)
		}
		if res.Kind != KindMarker {
			t.Fatalf("kind %q", res.Kind)
		}
		text := ftrace.String()
		for _, want := range []string{"main-1 [000] ...1 ", "tracing_mark_write: B|", "|check.A.first()V\n", "|custom section\n", "worker_thread-", "|check.A.second()V\n"} {
			if !strings.Contains(text, want) {
				t.Errorf("ftrace lacks %q:\n%s", want, text)
			}
		}
		var js bytes.Buffer
		if _, err := Decode(bytes.NewReader(data), &js, Options{Names: names, Format: FormatJSON}); err != nil {
			t.Fatal(err)
		}
		events := validateTraceJSON(t, js.Bytes())
		if begins := len(namesOfPhase(events, "B")); begins != 3 {
			t.Errorf("%d sections, want 3 (the 128-char name must not be recorded)", begins)
		}
	})
}

func frameShape(f Frame) string {
	s := fmt.Sprintf("%d@%d", f.MethodID, f.Depth)
	if f.Unclosed {
		s += " unclosed"
	}
	return s
}

// TestFixtureSourcesCompile keeps the fixture program and the runtime
// stand-ins compilable; the end-to-end run with the instrumenter is
// TestDecodeInstrumentedFixture in cmd/tracebeat.
func TestFixtureSourcesCompile(t *testing.T) {
	t.Parallel()
	needJava(t)
	runtimeClasses, programClasses := t.TempDir(), t.TempDir()
	javac(t, runtimeClasses, "", "testdata/runtime")
	javac(t, programClasses, "", "testdata/program")
	for _, class := range []string{"fixture/Main.class", "fixture/Risky.class", "fixture/Loader.class", "fixture/Work.class"} {
		if _, err := os.Stat(filepath.Join(programClasses, class)); err != nil {
			t.Error(err)
		}
	}
}
