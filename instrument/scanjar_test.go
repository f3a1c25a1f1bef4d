package instrument_test

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// scanKey names a scanned method.
type scanKey struct{ class, name, desc string }

func scannedByKey(t *testing.T, methods []methodmap.InstrumentedMethod) map[scanKey]methodmap.InstrumentedMethod {
	t.Helper()
	out := map[scanKey]methodmap.InstrumentedMethod{}
	for _, m := range methods {
		k := scanKey{m.Class, m.Name, m.Desc}
		_, dup := out[k]
		require.False(t, dup, "method %v listed twice", k)
		out[k] = m
	}
	return out
}

// instrumentForScan instruments inputs with every method traced (the
// default policy) and returns the output directory and the result.
func instrumentForScan(t *testing.T, rt rewrite.Runtime, base *methodmap.Map, inputs ...string) (string, *instrument.Result) {
	t.Helper()
	out := t.TempDir()
	res, err := instrument.Run(context.Background(), instrument.Options{
		Inputs: inputs, Output: out, Workers: 2, Runtime: rt,
		Policy: scan.Policy{BaseMap: base},
	})
	require.NoError(t, err)
	return out, res
}

// TestScanInstrumentedFindsEveryInjectedID instruments the fixture
// programs and reads the ids back: every traced method carries exactly its
// own id (at entry and at every exit), every other method none, and the
// method list is the input's plus the inserted focus methods. Base maps
// with high-water marks move the ids into the range of every push form
// (iconst, bipush, sipush, ldc of an Integer).
func TestScanInstrumentedFindsEveryInjectedID(t *testing.T) {
	javatest.RequireJava(t)
	classes := javatest.InstrumentFixtures(t)
	jar := javatest.Jar(t, classes)
	before, err := scan.ScanInstrumented(jar, rewrite.DefaultRuntime())
	require.NoError(t, err)
	origMethods := scannedByKey(t, before)
	for k, m := range origMethods {
		require.Empty(t, m.InjectedIDs, "%v has ids before instrumentation", k)
	}
	// A directory scans like the jar packed from it.
	fromDir, err := scan.ScanInstrumented(classes, rewrite.DefaultRuntime())
	require.NoError(t, err)
	assert.Equal(t, origMethods, scannedByKey(t, fromDir))

	tests := []struct {
		name      string
		mode      rewrite.Mode
		highWater int // of the base map; new ids start above it
		// wantForms are the push instructions the ids need (beat mode).
		wantForms []string
	}{
		{"beat, small ids", rewrite.ModeBeat, 0, []string{"iconst", "bipush"}},
		{"beat, sipush ids", rewrite.ModeBeat, 1000, []string{"sipush"}},
		{"beat, ldc ids", rewrite.ModeBeat, 70000, []string{"ldc"}},
		{"systrace", rewrite.ModeSystrace, 0, nil},
		{"systrace, large ids", rewrite.ModeSystrace, 1000000, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rt := rewrite.DefaultRuntime()
			rt.Mode = tc.mode
			var base *methodmap.Map
			if tc.highWater > 0 {
				base = &methodmap.Map{HighWater: tc.highWater}
			}
			out, res := instrumentForScan(t, rt, base, jar)
			require.NotEmpty(t, tracedMethods(t, res))
			scanned, err := scan.ScanInstrumented(filepath.Join(out, filepath.Base(jar)), rt)
			require.NoError(t, err)
			after := scannedByKey(t, scanned)

			wantIDs := map[scanKey]int{}
			for _, m := range tracedMethods(t, res) {
				wantIDs[scanKey{m.Key.Class, m.Key.Name, m.Key.Desc}] = m.ID
			}
			pushForms := map[string]bool{}
			for k, m := range after {
				id, traced := wantIDs[k]
				if !traced {
					assert.Empty(t, m.InjectedIDs, "%v is not traced but carries ids", k)
					continue
				}
				if tc.mode == rewrite.ModeBeat {
					// i(id) at entry, o(id) before each return and in the handler.
					assert.GreaterOrEqual(t, len(m.InjectedIDs), 2, "%v", k)
				} else {
					assert.Len(t, m.InjectedIDs, 1, "%v: one beginSection", k)
				}
				for _, got := range m.InjectedIDs {
					assert.Equal(t, id, got, "%v", k)
				}
				pushForms[pushForm(id)] = true
			}
			for k := range wantIDs {
				assert.Contains(t, after, k, "traced method not found by the scan")
			}
			if tc.wantForms != nil {
				want := map[string]bool{}
				for _, f := range tc.wantForms {
					want[f] = true
				}
				assert.Equal(t, want, pushForms, "ids from %d to %d", tracedMethods(t, res)[0].ID, tracedMethods(t, res)[res.NumTraced()-1].ID)
			}

			// The same methods as the input, plus onWindowFocusChanged where
			// the instrumenter added it.
			added := 0
			for k, m := range after {
				if _, ok := origMethods[k]; ok {
					assert.Equal(t, origMethods[k].Access, m.Access, "%v", k)
					continue
				}
				assert.Equal(t, scanKey{k.class, "onWindowFocusChanged", "(Z)V"}, k, "method appeared")
				assert.Contains(t, res.Focus, k.class)
				added++
			}
			assert.Equal(t, len(origMethods)+added, len(after))
			if tc.mode == rewrite.ModeBeat {
				assert.Positive(t, added, "the fixture has Activities without onWindowFocusChanged")
			}
		})
	}
}

// pushForm is the instruction the instrumenter picks for an id.
func pushForm(id int) string {
	switch {
	case id <= 5:
		return "iconst"
	case id <= 127:
		return "bipush"
	case id <= 32767:
		return "sipush"
	}
	return "ldc"
}

// TestScanInstrumentedRecognisesOnlyItsRuntime: the calls are matched by
// runtime class, method and argument form; a jar instrumented for another
// runtime, and calls of the runtime with computed arguments or section
// names, carry no id.
func TestScanInstrumentedRecognisesOnlyItsRuntime(t *testing.T) {
	javatest.RequireJava(t)
	src := filepath.Join(t.TempDir(), "manual", "Manual.java")
	require.NoError(t, os.MkdirAll(filepath.Dir(src), 0o755))
	require.NoError(t, os.WriteFile(src, []byte(`package manual;
import com.tencent.matrix.trace.core.AppMethodBeat;
import android.os.Trace;
public class Manual {
    static int next;
    static void computed() { AppMethodBeat.i(next++); AppMethodBeat.o(next); }
    static void constant() { AppMethodBeat.i(7); AppMethodBeat.o(7); }
    static void named() { Trace.beginSection("hello"); Trace.beginSection("007"); Trace.endSection(); }
    static void numbered() { Trace.beginSection("42"); Trace.endSection(); }
}
`), 0o644))
	classes := javatest.Javac(t, javatest.Options{Release: 8,
		Classpath: []string{javatest.BeatStub(t), javatest.SystraceStub(t)}}, src)

	beat := rewrite.DefaultRuntime()
	systrace := beat
	systrace.Mode = rewrite.ModeSystrace
	other := beat
	other.BeatClass = "com/example/Beat"
	tests := []struct {
		name string
		rt   rewrite.Runtime
		want map[string][]int
	}{
		{"beat", beat, map[string][]int{"constant": {7, 7}}},
		{"systrace", systrace, map[string][]int{"numbered": {42}}},
		{"other beat class", other, map[string][]int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			scanned, err := scan.ScanInstrumented(classes, tc.rt)
			require.NoError(t, err)
			got := map[string][]int{}
			for _, m := range scanned {
				if m.Class == "manual/Manual" && len(m.InjectedIDs) > 0 {
					got[m.Name] = m.InjectedIDs
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestScanInstrumentedErrors: unreadable inputs and classes give errors
// naming the input, the entry and the reason.
func TestScanInstrumentedErrors(t *testing.T) {
	dir := t.TempDir()
	notZip := filepath.Join(dir, "notzip.jar")
	require.NoError(t, os.WriteFile(notZip, []byte("hello"), 0o644))

	badClassJar := filepath.Join(dir, "bad.jar")
	f, err := os.Create(badClassJar)
	require.NoError(t, err)
	zw := zip.NewWriter(f)
	w, err := zw.Create("com/example/Broken.class")
	require.NoError(t, err)
	_, err = w.Write([]byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0}) // truncated in the constant pool
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, f.Close())

	tests := []struct {
		name string
		path string
		want []string
	}{
		{"missing", filepath.Join(dir, "absent.jar"), []string{"absent.jar", "no such file"}},
		{"not a zip", notZip, []string{notZip, "not a readable jar"}},
		{"bad class", badClassJar, []string{badClassJar + ": com/example/Broken.class: "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scan.ScanInstrumented(tc.path, rewrite.DefaultRuntime())
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}
