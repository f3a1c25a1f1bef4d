package instrument_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/ziptest"
)

// FuzzInstrumentJar: zip bytes in, one instrument run. It never panics;
// a run that fails leaves nothing in the output folder; a run that
// succeeds writes a jar whose every entry reads back (sizes and CRC), with
// the input's names in the input's order, and whose classes parse.
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
	} {
		var b bytes.Buffer
		if err := ziptest.Write(&b, shape, ziptest.Options{}); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		work := t.TempDir()
		in := filepath.Join(work, "in.jar")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(work, "out")
		// A run that hangs crashes the worker with every goroutine's
		// stack, so the fuzzer keeps the input.
		watchdog := time.AfterFunc(20*time.Second, func() {
			buf := make([]byte, 1<<20)
			panic("instrument run hangs:\n" + string(buf[:runtime.Stack(buf, true)]))
		})
		defer watchdog.Stop()
		_, runErr := instrument.Run(context.Background(), instrument.Options{
			Inputs: []string{in}, Output: out, Workers: 2, Runtime: rewrite.DefaultRuntime(),
		})
		left, _ := os.ReadDir(out)
		if runErr != nil {
			if len(left) != 0 {
				t.Fatalf("failed run (%v) left %d files in the output folder", runErr, len(left))
			}
			return
		}
		if len(left) != 1 || left[0].Name() != "in.jar" {
			t.Fatalf("output folder holds %v", left)
		}
		zin, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("instrument accepted what archive/zip refuses: %v", err)
		}
		zout, err := zip.OpenReader(filepath.Join(out, "in.jar"))
		if err != nil {
			t.Fatalf("output is not a zip: %v", err)
		}
		defer zout.Close()
		var want []string
		inBody := map[string][]byte{}
		for _, e := range zin.File {
			if _, seen := inBody[e.Name]; seen {
				continue
			}
			want = append(want, e.Name)
			inBody[e.Name] = readEntry(t, e)
		}
		if len(want) != len(zout.File) {
			t.Fatalf("%d distinct input entries, %d output entries", len(want), len(zout.File))
		}
		for i, e := range zout.File {
			if e.Name != want[i] {
				t.Fatalf("entry %d: %q, input has %q", i, e.Name, want[i])
			}
			body := readEntry(t, e)
			if bytes.Equal(body, inBody[e.Name]) {
				continue
			}
			if filepath.Ext(e.Name) != ".class" {
				t.Fatalf("%s: a resource changed", e.Name)
			}
			if _, err := classfile.Parse(body); err != nil {
				t.Fatalf("%s: rewritten class does not parse: %v", e.Name, err)
			}
		}
	})
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
