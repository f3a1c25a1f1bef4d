package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

const (
	sampleMap  = "../../decode/testdata/sample/methodMapping.txt"
	sampleBeat = "../../decode/testdata/sample/beat.txt"
)

func runDecodeArgs(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := runMain(append([]string{"decode"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestDecodeCommandExitCodes(t *testing.T) {
	dir := t.TempDir()
	badMap := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(badMap, []byte("1,1,a.B run ()V\n1,1,a.C run ()V\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.txt")
	if err := os.WriteFile(garbage, []byte("17592186044419\nnot a number\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		code      int
		stdoutHas string
		stderrHas string
	}{
		{"help", []string{"--help"}, exitOK, "tracebeat decode --map methodMapping.txt --png trace.png beat.bin", ""},
		{"no input", nil, exitUsage, "", "expected exactly one INPUT"},
		{"two inputs", []string{"a", "b"}, exitUsage, "", "expected exactly one INPUT"},
		{"unknown flag", []string{"--nope", "x"}, exitUsage, "", "unknown flag"},
		{"bad format", []string{"--format", "xml", "x"}, exitUsage, "", `--format must be text, json, perfetto, systrace, html, art, speedscope, pprof or collapsed, not "xml"`},
		{"bad kind", []string{"--input-kind", "core", "x"}, exitUsage, "", "--input-kind must be auto or one of"},
		{"bad byte order", []string{"--byte-order", "middle", "x"}, exitUsage, "", "--byte-order must be auto, big or little"},
		{"bad top", []string{"--top", "0", "x"}, exitUsage, "", "at least 1"},
		{"missing input", []string{filepath.Join(dir, "none.bin")}, exitFailure, "", "none.bin: no such file"},
		{"bad map", []string{"--map", badMap, sampleBeat}, exitFailure, "", "bad.txt: line 2: method id 1 already defined at line 1"},
		{"bad input line", []string{garbage}, exitFailure, "", `garbage.txt: line 2: "not a number"`},
		{"summary", []string{"--map", sampleMap, sampleBeat}, exitOK, "* 119 ms      1    app.MainActivity.onCreate(Landroid.os.Bundle;)V", "1 call without an exit record"},
		{"no map flags ids", []string{sampleBeat}, exitOK, "<unknown id 9>", "(no --map given)"},
		{"stack png refused", []string{"--png", filepath.Join(dir, "x.png"), "--input-kind", "stack", garbage}, exitFailure, "", "garbage.txt: line 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runDecodeArgs(tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.stdoutHas) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdoutHas, stdout)
			}
			if !strings.Contains(stderr, tc.stderrHas) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderrHas, stderr)
			}
		})
	}
}

func TestDecodeCommandOutputFileAndPNG(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "trace.json")
	pic := filepath.Join(dir, "trace.png")
	code, stdout, stderr := runDecodeArgs("--map", sampleMap, "--format", "json", "-o", out, "--png", pic, sampleBeat)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout not empty with -o: %q", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(`{"traceEvents":[`)) || !bytes.Contains(data, []byte(`"name":"app.config.JsonParser.parse(Ljava.io.Reader;)Ljava.lang.Object;"`)) {
		t.Errorf("unexpected JSON:\n%s", data[:min(len(data), 300)])
	}
	f, err := os.Open(pic)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() < 100 || img.Bounds().Dy() < 50 {
		t.Errorf("picture is %v", img.Bounds())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestDecodeCommandStdin(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()
	go func() {
		w.WriteString("0,1048574,1,180\n1,1,1,119\n")
		w.Close()
	}()
	code, stdout, stderr := runDecodeArgs("--map", sampleMap, "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "119 ms      1    app.MainActivity.onCreate(Landroid.os.Bundle;)V") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestDecodeCommandFailureLeavesNoOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "beat.txt")
	if err := os.WriteFile(in, []byte("17592186044419\n0xZZ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	code, _, stderr := runDecodeArgs("--format", "json", "-o", out, in)
	if code != exitFailure || !strings.Contains(stderr, "line 2") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files after a failed decode: %v", entries)
	}
}

// TestDecodeInstrumentedFixture is the real run: compile the fixture
// program (decode/testdata/program) and the runtime stand-ins
// (decode/testdata/runtime), instrument the program with `tracebeat
// instrument` in both modes, run it, and decode what the runtime wrote.
func TestDecodeInstrumentedFixture(t *testing.T) {
	javatest.RequireJava(t)
	dir := t.TempDir()
	runtimeClasses := filepath.Join(dir, "runtime")
	programClasses := filepath.Join(dir, "program")
	compileJava(t, runtimeClasses, "../../decode/testdata/runtime")
	compileJava(t, programClasses, "../../decode/testdata/program")

	// The fixture's calls in pre-order, constructors left out (whether they
	// are traced is the instrumenter's business, not the decoder's).
	wantCalls := []string{
		"fixture.Main.main([Ljava.lang.String;)V",
		"fixture.Main.run()V",
		"fixture.Loader.load(I)V",
		"fixture.Loader.step(I)V", "fixture.Work.spin(I)V",
		"fixture.Loader.step(I)V", "fixture.Work.spin(I)V",
		"fixture.Loader.step(I)V", "fixture.Work.spin(I)V",
		"fixture.Main.guarded()V",
		"fixture.Risky.outer()V",
		"fixture.Risky.middle()V",
		"fixture.Risky.inner(Ljava.lang.String;)V", "fixture.Work.spin(I)V",
		"fixture.Main.recover(Ljava.lang.IllegalStateException;)V", "fixture.Work.spin(I)V",
		"fixture.Main.compute()V", "fixture.Work.spin(I)V",
	}

	for _, c := range []struct {
		mode, recordFlag, record string
		open                     string // the phase of a call in the decoded JSON
		unclosed                 string // how the decoder reports a call never closed
	}{
		{"beat", "-Dtracebeat.beat.out=", "beat.bin", "X", "no exit record"},
		{"systrace", "-Dtracebeat.trace.out=", "trace.txt", "B", "never ended"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			out := filepath.Join(dir, c.mode+"-out")
			methodMap := filepath.Join(dir, c.mode+"-methodMapping.txt")
			instrumentFixture(t, c.mode, programClasses, out, methodMap)
			record := filepath.Join(dir, c.record)
			runFixture(t, c.recordFlag+record, filepath.Join(out, "program")+string(os.PathListSeparator)+runtimeClasses)
			code, stdout, stderr := runDecodeArgs("--map", methodMap, "--format", "json", record)
			if code != exitOK {
				t.Fatalf("decode exit %d: %s", code, stderr)
			}
			if strings.Contains(stderr, c.unclosed) || strings.Contains(stderr, "not in the map") {
				t.Errorf("the catch-all handler should close every call, and every id be mapped:\n%s", stderr)
			}
			got := callsInOrder(t, []byte(stdout), c.open)
			if strings.Join(got, "\n") != strings.Join(wantCalls, "\n") {
				t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantCalls, "\n"))
			}
		})
	}
}

func compileJava(t *testing.T, out, sourceDir string) {
	t.Helper()
	var files []string
	filepath.WalkDir(sourceDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return err
	})
	cmd := exec.Command("javac", append([]string{"-d", out}, files...)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
}

func instrumentFixture(t *testing.T, mode, classes, out, methodMap string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runMain([]string{"instrument", "--mode", mode, "-o", out, "--method-map", methodMap, classes}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("instrument --mode %s: exit %d\n%s%s", mode, code, stdout.String(), stderr.String())
	}
}

func runFixture(t *testing.T, property, classpath string) {
	t.Helper()
	cmd := exec.Command("java", property, "-cp", classpath, "fixture.Main")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("java fixture.Main: %v\n%s", err, msg)
	}
}

// callsInOrder lists the names of the ph events in file order, leaving out
// constructors and everything they call.
func callsInOrder(t *testing.T, traceJSON []byte, ph string) []string {
	t.Helper()
	var doc struct {
		TraceEvents []struct {
			Name string  `json:"name"`
			Ph   string  `json:"ph"`
			Ts   float64 `json:"ts"`
			Dur  float64 `json:"dur"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(traceJSON, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	skipUntil := -1.0 // end of the constructor being skipped (X events)
	depthInInit := 0  // open B events inside a skipped constructor
	for _, ev := range doc.TraceEvents {
		isInit := strings.Contains(ev.Name, ".<init>(")
		switch ev.Ph {
		case "X":
			if ev.Ts < skipUntil || (ev.Ts == skipUntil && ev.Dur == 0 && !isInit) {
				continue
			}
			if isInit {
				skipUntil = ev.Ts + ev.Dur
				continue
			}
		case "B":
			if depthInInit > 0 || isInit {
				depthInInit++
				continue
			}
		case "E":
			if depthInInit > 0 {
				depthInInit--
			}
			continue
		default:
			continue
		}
		if ev.Ph == ph {
			names = append(names, ev.Name)
		}
	}
	return names
}

// TestDecodeRefusesNonTraces: what is not a trace is refused with one
// line, "INPUT: not a recognised trace (why)", exit 1 and nothing on
// stdout: prose that names the formats (the READMEs), sources, JSON that
// is not a Matrix issue (trace-event JSON included: decode writes it, it
// does not read it), CSV, a method map, a jar and an empty file.
func TestDecodeRefusesNonTraces(t *testing.T) {
	root := filepath.Join("..", "..")
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{
		filepath.Join(root, "README.md"),
		filepath.Join(root, "gradle", "README.md"),
		filepath.Join(root, "decode", "recording", "RECORDING.md"),
		filepath.Join(root, "decode", "systrace.go"),
		filepath.Join(root, "decode", "detect.go"),
		filepath.Join(root, "go.mod"),
		filepath.Join(root, "testdata", "demo", "src", "com", "example", "demo", "App.java"),
		filepath.Join(root, "gradle", "src", "main", "java", "com", "github", "tracebeat", "gradle", "ToolRun.java"),
		filepath.Join(root, "decode", "testdata", "nontraces", "prices.csv"),
		filepath.Join(root, "decode", "testdata", "nontraces", "package.json"),
		filepath.Join(root, "decode", "testdata", "nontraces", "trace-events.json"),
		filepath.Join(root, "decode", "testdata", "nontraces", "page.html"),
		sampleMap,
		insFixtureJar(t),
		empty,
	}
	for _, in := range inputs {
		for _, format := range []string{"text", "json"} {
			t.Run(filepath.Base(in)+"/"+format, func(t *testing.T) {
				code, stdout, stderr := runDecodeArgs("--map", sampleMap, "--format", format, in)
				if code != exitFailure {
					t.Errorf("exit %d, want %d", code, exitFailure)
				}
				if stdout != "" {
					t.Errorf("stdout is not empty: %.200q", stdout)
				}
				lines := strings.Split(strings.TrimSpace(stderr), "\n")
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "tracebeat decode: "+in+": not a recognised trace (") {
					t.Errorf("stderr is not one line %q: %q", "tracebeat decode: "+in+": not a recognised trace (why)", stderr)
				}
			})
		}
	}
}

// TestDecodePNGSaysWhatItCut: a buffer 120 calls deep draws 40 rows by
// default and says on stderr (and in the picture) what it left out and
// the flag that draws it; with that flag nothing is cut.
func TestDecodePNGSaysWhatItCut(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	const depth = 120
	record := func(enter bool, id, ms int64) int64 {
		r := id<<43 | ms
		if enter {
			r |= -1 << 63
		}
		return r
	}
	for d := int64(0); d < depth; d++ {
		fmt.Fprintln(&b, record(true, d+1, d))
	}
	for d := int64(depth - 1); d >= 0; d-- {
		fmt.Fprintln(&b, record(false, d+1, 2*depth-d))
	}
	in := filepath.Join(dir, "deep.txt")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pic := filepath.Join(dir, "deep.png")
	code, _, stderr := runDecodeArgs("--png", pic, in)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := "calls deeper than 40 rows not drawn (deepest at depth 120); --png-depth 120 draws them"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	code, _, stderr = runDecodeArgs("--png", pic, "--png-depth", "120", in)
	if code != exitOK || strings.Contains(stderr, "not drawn") {
		t.Errorf("exit %d with --png-depth 120: %s", code, stderr)
	}
	if code, _, stderr = runDecodeArgs("--png", pic, "--png-depth", "0", in); code != exitUsage {
		t.Errorf("--png-depth 0: exit %d: %s", code, stderr)
	}
}
