package instrument_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/ziptest"
)

// FuzzInstrumentJar: zip bytes in, one instrument run. The property is
// the README's promise, judged as Java judges a jar (ziptest.ReadLikeJava,
// which reads the central directory and inflates each entry to its
// declared size, ignoring CRCs as java.util.zip.ZipFile does), not as
// archive/zip does: a run never panics; a run that fails leaves nothing in
// the output folder; a run over a jar Java reads succeeds unless a class
// is damaged past parsing, and writes a jar Java reads with the input's
// entries (the first of each name) in the input's order, the same bytes
// in every entry but rewritten classes, which parse.
//
// Coverage should depend on the input alone: one worker (the scheduling
// of several changes which branches run), and no collection during a run,
// which would empty the buffer pools (sync.Pool) at a random moment and
// send the run down other branches. A collection between two runs still
// can, so a few inputs look new for that alone; emptying the pools before
// every run (two forced collections) removed that, but at 125 executions/s
// where this runs at 708 beside another target (60 s each, this machine).
// The stall the issue saw (17 executions in 150 s) was Go minimising each
// input that found new coverage for up to 60 s without counting it:
// scripts/fuzz.sh passes -fuzzminimizetime 100x.
func FuzzInstrumentJar(f *testing.F) {
	javatest.RequireJava(f)
	dir := javatest.Javac(f, javatest.Options{Release: 8}, javatest.Testdata(f, "zip", "src"))
	traced, err := os.ReadFile(filepath.Join(dir, "z", "Traced.class"))
	if err != nil {
		f.Fatal(err)
	}
	plain, err := os.ReadFile(filepath.Join(dir, "z", "Plain.class"))
	if err != nil {
		f.Fatal(err)
	}
	for _, shape := range [][]ziptest.Entry{
		{{Name: []byte("z/Traced.class"), Data: traced, Deflate: true}},
		{{Name: []byte("z/Traced.class"), Data: traced}, {Name: []byte("p/empty.txt")}},
		{{Name: []byte("z/"), Dir: true}, {Name: []byte("z/Plain.class"), Data: plain, Deflate: true, Descriptor: true},
			{Name: []byte("z/Traced.class"), Data: traced, Descriptor: true, DescriptorNoSig: true}},
		{{Name: []byte("z/Traced.class"), Data: traced, Deflate: true, WrongCRC: true}, {Name: []byte("p/r.txt"), Data: []byte("text"), WrongCRC: true}},
	} {
		var b bytes.Buffer
		if err := ziptest.Write(&b, shape, ziptest.Options{}); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	work := f.TempDir()
	var n int
	f.Fuzz(func(t *testing.T, data []byte) {
		// Folders of the fuzzing process's own, made and removed here:
		// t.TempDir costs a subtest's bookkeeping per execution.
		n++
		run := filepath.Join(work, strconv.Itoa(n))
		defer os.RemoveAll(run)
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(run, "in.jar")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(run, "out")
		gc := debug.SetGCPercent(-1)
		// A run that hangs crashes the worker with every goroutine's
		// stack, so the fuzzer keeps the input.
		watchdog := time.AfterFunc(20*time.Second, func() {
			buf := make([]byte, 1<<20)
			panic("instrument run hangs:\n" + string(buf[:runtime.Stack(buf, true)]))
		})
		res, runErr := instrument.Run(context.Background(), instrument.Options{
			Inputs: []string{in}, Output: out, Workers: 1, Runtime: rewrite.DefaultRuntime(),
		})
		watchdog.Stop()
		debug.SetGCPercent(gc)
		left, _ := os.ReadDir(out)
		javaIn, javaErr := ziptest.ReadLikeJava(data)
		if runErr != nil {
			if len(left) != 0 {
				t.Fatalf("failed run (%v) left %d files in the output folder", runErr, len(left))
			}
			if javaErr == nil {
				t.Fatalf("Java reads the jar, instrument refused it: %v", runErr)
			}
			return
		}
		if len(left) != 1 || left[0].Name() != "in.jar" {
			t.Fatalf("output folder holds %v", left)
		}
		if javaErr != nil {
			return // not a jar Java reads: nothing was promised but the above
		}
		outData, err := os.ReadFile(filepath.Join(out, "in.jar"))
		if err != nil {
			t.Fatal(err)
		}
		javaOut, err := ziptest.ReadLikeJava(outData)
		if err != nil {
			t.Fatalf("Java reads the input, not the output: %v", err)
		}
		var want []ziptest.Read
		seen := map[string]bool{}
		for _, e := range javaIn {
			if !seen[e.Name] {
				seen[e.Name] = true
				want = append(want, e)
			}
		}
		if len(want) != len(javaOut) {
			t.Fatalf("%d distinct input entries, %d output entries", len(want), len(javaOut))
		}
		for i, e := range javaOut {
			if e.Name != want[i].Name {
				t.Fatalf("entry %d: %q, input has %q", i, e.Name, want[i].Name)
			}
			if bytes.Equal(e.Body, want[i].Body) {
				continue
			}
			if strings.HasSuffix(e.Name, "/") && len(e.Body) == 0 && warned(res.Warnings, e.Name+": a directory entry holding") {
				continue // a directory is written empty, and the run says so
			}
			if filepath.Ext(e.Name) != ".class" || res.Rewritten == 0 {
				t.Fatalf("%s: changed, and is not a class the run rewrote", e.Name)
			}
			if _, err := classfile.Parse(e.Body); err != nil {
				t.Fatalf("%s: rewritten class does not parse: %v", e.Name, err)
			}
		}
	})
}

// warned reports whether a warning contains text.
func warned(warnings []string, text string) bool {
	for _, w := range warnings {
		if strings.Contains(w, text) {
			return true
		}
	}
	return false
}

// readEntry reads an entry whole; a run that succeeded has read or
// checked every entry it wrote, so each must read.
func readEntry(t *testing.T, e *zip.File) []byte {
	t.Helper()
	r, err := e.Open()
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	defer r.Close()
	body, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	return body
}
