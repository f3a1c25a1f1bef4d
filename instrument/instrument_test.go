package instrument_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/instrument"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// runPipeline instruments jars into a fresh directory and returns it.
func runPipeline(t *testing.T, mode rewrite.Mode, workers int, inputs ...string) (string, *instrument.Result) {
	t.Helper()
	out := t.TempDir()
	rt := rewrite.DefaultRuntime()
	rt.Mode = mode
	res, err := instrument.Run(context.Background(), instrument.Options{
		Inputs: inputs, Output: out, Workers: workers, Runtime: rt, Lists: true,
	})
	require.NoError(t, err)
	return out, res
}

func fixturesJar(t *testing.T) string {
	t.Helper()
	javatest.RequireJava(t)
	return javatest.Jar(t, javatest.InstrumentFixtures(t))
}

// TestProgramsStayBalanced runs every fixture program before and after
// instrumentation: the output must not change, and on every thread each
// enter must be closed by its own exit, exceptions included.
func TestProgramsStayBalanced(t *testing.T) {
	orig := fixturesJar(t)
	for _, mode := range []rewrite.Mode{rewrite.ModeBeat, rewrite.ModeSystrace} {
		t.Run(mode.String(), func(t *testing.T) {
			out, res := runPipeline(t, mode, 2, orig)
			traced := filepath.Join(out, filepath.Base(orig))
			require.NotEmpty(t, tracedMethods(t, res))
			for _, prog := range javatest.InstrumentPrograms {
				t.Run(prog, func(t *testing.T) {
					t.Parallel()
					before, errBefore, err := stubJVM(t, mode, orig).Run(t, prog)
					require.NoError(t, err, errBefore)
					after, stderr, err := stubJVM(t, mode, traced).Run(t, prog)
					require.NoError(t, err, stderr)
					assert.Equal(t, before, after, "program output changed")
					if mode == rewrite.ModeSystrace {
						rep, err := javatest.ParseTraceReport(stderr)
						require.NoError(t, err)
						assert.True(t, rep.Balanced(), "unbalanced: %+v", rep)
						assert.Positive(t, rep.Begin)
						return
					}
					rep, err := javatest.ParseStubReport(stderr)
					require.NoError(t, err)
					assert.True(t, rep.Balanced(), "unbalanced: %+v", rep)
					assert.Positive(t, rep.Enter)
					if prog == "ins.Focus" {
						want := map[string]int{}
						for _, a := range javatest.FocusActivities {
							want[a] = 1
						}
						assert.Equal(t, want, rep.FocusByClass, "focus must report once per Activity call")
					} else {
						assert.Zero(t, rep.Focus)
					}
				})
			}
		})
	}
}

func stubJVM(t *testing.T, mode rewrite.Mode, classpath ...string) javatest.JVM {
	if mode == rewrite.ModeSystrace {
		// The fixtures extend the Activity stub, which lives with the beat stub.
		return javatest.SystraceStubJVM(t, append(classpath, javatest.BeatStub(t))...)
	}
	return javatest.BeatStubJVM(t, classpath...)
}

// TestInstrumentedClassesVerify has HotSpot verify every instrumented
// class of the fixture sets: the instrumenter's programs and the class-file
// fixtures (records, switches, lambdas, type annotations, wide locals,
// goto_w, constructors with uninitialized frames, Java 8 and preview classes).
func TestInstrumentedClassesVerify(t *testing.T) {
	javatest.RequireJava(t)
	stub := javatest.Jar(t, javatest.BeatStub(t))
	trace := javatest.Jar(t, javatest.SystraceStub(t))
	sets := map[string]string{
		"instrument": javatest.InstrumentFixtures(t),
		"classfile":  javatest.ClassfileFixtures(t),
		"release8":   javatest.ClassfileRelease8Fixtures(t),
		"preview":    javatest.ClassfilePreviewFixtures(t),
	}
	names := make([]string, 0, len(sets))
	for n := range sets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		jar := javatest.Jar(t, sets[name])
		for _, mode := range []rewrite.Mode{rewrite.ModeBeat, rewrite.ModeSystrace} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				t.Parallel()
				out, res := runPipeline(t, mode, 2, jar)
				require.Positive(t, res.Rewritten)
				assert.Empty(t, res.Warnings, "every fixture class must be readable")
				v := javatest.RequireVerified(t, filepath.Join(out, filepath.Base(jar)), stub, trace)
				assert.Equal(t, len(v.Classes), len(v.OK))
			})
		}
	}
}

// TestMethodsAtTheLimitsStayUntouched: a method that cannot grow (64 KiB)
// or whose branches would overflow is left as it was, with the reason.
func TestMethodsAtTheLimitsStayUntouched(t *testing.T) {
	orig := fixturesJar(t)
	out, res := runPipeline(t, rewrite.ModeBeat, 2, orig)
	assert.Equal(t, 1, res.Skipped[rewrite.ReasonCodeTooLarge], "skipped: %v", res.Skipped)
	assert.Equal(t, 1, res.Skipped[rewrite.ReasonBranchOverflow], "skipped: %v", res.Skipped)
	reasons := map[string]string{}
	for _, m := range res.Ignored {
		if m.Key.Class == "ins/Big" {
			reasons[m.Key.Name] = string(m.Reason)
		}
	}
	assert.Equal(t, rewrite.ReasonBranchOverflow, reasons["nearBranchLimit"])
	assert.Equal(t, rewrite.ReasonCodeTooLarge, reasons["nearCodeLimit"])
	method := methodMapOf(t, res)
	for _, e := range method.Entries {
		assert.False(t, e.Key.Class == "ins/Big" && strings.HasPrefix(e.Key.Name, "near"), "%v is in the map", e.Key)
	}
	// The planned map keeps them, and the method map's high-water mark
	// retires their ids; the text written is the map.
	planned := plannedMapOf(t, res)
	assert.Len(t, planned.Entries, len(method.Entries)+2)
	for _, e := range planned.Entries {
		if e.Key.Class == "ins/Big" && strings.HasPrefix(e.Key.Name, "near") {
			assert.GreaterOrEqual(t, method.HighWater, e.ID, "%v's id is retired", e.Key)
		}
	}
	var written bytes.Buffer
	require.NoError(t, res.WriteMethodMap(&written))
	want, err := methodmap.EncodeMap(method)
	require.NoError(t, err)
	assert.Equal(t, string(want), written.String())
	// The class still verifies and its other methods are traced.
	stub := javatest.Jar(t, javatest.BeatStub(t))
	javatest.RequireVerified(t, filepath.Join(out, filepath.Base(orig)), stub)
}

// TestOutputIsDeterministic: the same inputs give byte-identical jars at
// any worker count.
func TestOutputIsDeterministic(t *testing.T) {
	orig := fixturesJar(t)
	cf := filepath.Join(t.TempDir(), "classfile.jar")
	data, err := os.ReadFile(javatest.Jar(t, javatest.ClassfileFixtures(t)))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cf, data, 0o644))
	var first [][]byte
	for _, workers := range []int{1, 2, 8} {
		out, _ := runPipeline(t, rewrite.ModeBeat, workers, orig, cf)
		var got [][]byte
		for _, in := range []string{orig, cf} {
			b, err := os.ReadFile(filepath.Join(out, filepath.Base(in)))
			require.NoError(t, err)
			got = append(got, b)
		}
		if first == nil {
			first = got
			continue
		}
		for i := range got {
			assert.True(t, bytes.Equal(first[i], got[i]), "workers=%d: output %d differs", workers, i)
		}
	}
}

// TestRewrittenEntriesKeepTheirCompression: a class stored uncompressed in
// its jar (jar --no-compress, as kotlin-compiler.jar ships) is stored again
// once rewritten, and a deflated one deflated again; the stored jar still
// verifies.
func TestRewrittenEntriesKeepTheirCompression(t *testing.T) {
	javatest.RequireJava(t)
	classes := javatest.InstrumentFixtures(t)
	stored := filepath.Join(t.TempDir(), "stored.jar")
	cmd := exec.Command("jar", "--create", "--no-compress", "--file", stored, "-C", classes, ".")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	deflated := fixturesJar(t)
	for _, c := range []struct {
		jar    string
		method uint16
	}{{stored, zip.Store}, {deflated, zip.Deflate}} {
		t.Run(filepath.Base(c.jar), func(t *testing.T) {
			outDir, res := runPipeline(t, rewrite.ModeBeat, 2, c.jar)
			require.Positive(t, res.Rewritten)
			before := javatest.ClassFiles(t, c.jar)
			zr, err := zip.OpenReader(filepath.Join(outDir, filepath.Base(c.jar)))
			require.NoError(t, err)
			defer zr.Close()
			rewritten := 0
			for _, f := range zr.File {
				if !strings.HasSuffix(f.Name, ".class") {
					continue
				}
				rc, err := f.Open()
				require.NoError(t, err)
				data, err := io.ReadAll(rc)
				rc.Close()
				require.NoError(t, err)
				if bytes.Equal(data, before[f.Name]) {
					continue
				}
				rewritten++
				assert.Equal(t, c.method, f.Method, "%s", f.Name)
			}
			assert.Equal(t, res.Rewritten, rewritten)
			if c.method == zip.Store {
				stub := javatest.Jar(t, javatest.BeatStub(t))
				v := javatest.RequireVerified(t, filepath.Join(outDir, filepath.Base(c.jar)), stub)
				assert.Equal(t, len(v.Classes), len(v.OK))
			}
		})
	}
}
