package instrument_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/ci"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// asmJar is Debian's ASM (libasm-java), which the lab uses too.
const asmJar = "/usr/share/java/asm.jar"

// shapeClasses are the classes testdata/bytecode/gen writes.
var shapeClasses = []string{
	"shapes.Switches", "shapes.Wide", "shapes.Old49", "shapes.Old46",
	"shapes.Indy", "shapes.Branches", "shapes.Ctors", "shapes.Misc",
}

// bytecodeShapes generates the shapes javac cannot produce with ASM and
// returns them as a jar.
func bytecodeShapes(t *testing.T) string {
	javatest.RequireJava(t)
	if _, err := os.Stat(asmJar); err != nil {
		if ci.On() {
			t.Fatalf("%s missing (scripts/test.sh installs libasm-java)", asmJar)
		}
		t.Skipf("%s missing (apt-get install libasm-java)", asmJar)
	}
	gen := javatest.Javac(t, javatest.Options{Release: 17, Classpath: []string{asmJar}}, javatest.Testdata(t, "bytecode", "gen"))
	out := t.TempDir()
	_, stderr, err := javatest.Run(t, []string{asmJar, gen}, "BytecodeShapes", out)
	require.NoError(t, err, stderr)
	return javatest.Jar(t, out)
}

// runShapes calls every public static (I)I method of the shapes with
// ShapeRunner on the stub of mode.
func runShapes(t *testing.T, mode rewrite.Mode, jar string) (stdout, stderr string) {
	runner := javatest.Javac(t, javatest.Options{Release: 17}, javatest.Testdata(t, "bytecode", "runner"))
	stdout, stderr, err := stubJVM(t, mode, jar, runner).Run(t, "ShapeRunner", shapeClasses...)
	require.NoError(t, err, stderr)
	return stdout, stderr
}

// TestBytecodeConformance: every shape verifies on HotSpot before and
// after instrumentation in both modes, computes the same results, keeps
// every thread's enters and exits balanced, and each method is either
// traced or left untouched with the reason it could not be.
func TestBytecodeConformance(t *testing.T) {
	orig := bytecodeShapes(t)
	v := javatest.RequireVerified(t, orig)
	require.Len(t, v.Classes, len(shapeClasses))
	want, _ := runShapes(t, rewrite.ModeBeat, orig)
	require.Greater(t, strings.Count(want, "\n"), 60)
	for _, mode := range []rewrite.Mode{rewrite.ModeBeat, rewrite.ModeSystrace} {
		t.Run(mode.String(), func(t *testing.T) {
			out, res := runPipeline(t, mode, 2, orig)
			require.Empty(t, res.Warnings, "every shape must parse")
			jar := filepath.Join(out, filepath.Base(orig))
			deps := []string{javatest.Jar(t, javatest.BeatStub(t)), javatest.Jar(t, javatest.SystraceStub(t))}
			v := javatest.RequireVerified(t, jar, deps...)
			assert.Equal(t, len(v.Classes), len(v.OK))

			got, stderr := runShapes(t, mode, jar)
			assert.Equal(t, want, got, "results changed")
			if mode == rewrite.ModeBeat {
				rep, err := javatest.ParseStubReport(stderr)
				require.NoError(t, err)
				assert.True(t, rep.Balanced(), "unbalanced: %+v", rep)
				assert.Positive(t, rep.Enter)
			} else {
				rep, err := javatest.ParseTraceReport(stderr)
				require.NoError(t, err)
				assert.True(t, rep.Balanced(), "unbalanced: %+v", rep)
			}

			traced := map[string]bool{}
			for _, m := range tracedMethods(t, res) {
				traced[m.Key.Class+"."+m.Key.Name+m.Key.Desc] = true
			}
			skipped := map[string]string{}
			for _, m := range res.Ignored {
				skipped[m.Key.Class+"."+m.Key.Name+m.Key.Desc] = string(m.Reason)
			}
			// Each shape is traced, but for the branch spans that cannot grow.
			for _, name := range []string{
				"shapes/Switches.lookup0_at1(I)I", "shapes/Switches.lookup0_at4(I)I", "shapes/Switches.table23_at3(I)I",
				"shapes/Wide.wideLocals(I)I", "shapes/Wide.hugeLocals(I)I",
				"shapes/Old49.withJsr(I)I", "shapes/Old49.wideRet(I)I", "shapes/Old49.finallyJsr(I)I", "shapes/Old46.finallyJsr(I)I",
				"shapes/Indy.concatFirst(I)I", "shapes/Branches.gotoW(I)I", "shapes/Branches.backward120(I)I",
				"shapes/Ctors.<init>(Z)V", "shapes/Ctors.<init>(I)V", "shapes/Ctors.<init>(J)V", "shapes/Ctors.<init>(S)V",
				"shapes/Misc.nothing()V", "shapes/Misc.loopAtZero(I)I", "shapes/Misc.neverReturns(I)I",
				"shapes/Misc.handlerEverywhere(I)I", "shapes/Misc.locked(I)I",
			} {
				assert.True(t, traced[name], "%s is not traced (%s)", name, skipped[name])
			}
			var overflow []string
			for name, reason := range skipped {
				assert.Equal(t, rewrite.ReasonBranchOverflow, reason, name)
				overflow = append(overflow, name)
			}
			sort.Strings(overflow)
			// A branch of 32767-3 bytes with 8 returns inside cannot take 8
			// exit calls; one with 120 bytes to spare can.
			assert.Contains(t, overflow, "shapes/Branches.backward0(I)I")
			assert.Contains(t, overflow, "shapes/Branches.forward0(I)I")
		})
	}
}

// TestOtherCompilers: classes made by kotlinc, groovyc and ecj (their own
// constructor shapes, frames and finally layouts) verify on HotSpot after
// instrumentation in both modes and run as before, balanced.
func TestOtherCompilers(t *testing.T) {
	javatest.RequireJava(t)
	cases := []struct {
		compiler, dir, main, prefix string
		runtime                     []string // jars the classes need
	}{
		{"kotlinc", "kotlin", "shapes.KShapesKt", "kotlin: ", []string{"/usr/share/java/kotlin-stdlib.jar"}},
		{"groovyc", "groovy", "shapes.GShapes", "groovy: ", []string{"/usr/share/java/groovy-all.jar"}},
		{"ecj", "ecj", "shapes.EShapes", "ecj: ", nil},
	}
	for _, c := range cases {
		t.Run(c.compiler, func(t *testing.T) {
			t.Parallel()
			classes := javatest.Javac(t, javatest.Options{Compiler: c.compiler}, javatest.Testdata(t, "bytecode", c.dir))
			orig := javatest.Jar(t, classes)
			javatest.RequireVerified(t, orig, c.runtime...)
			want, _, err := javatest.JVM{Classpath: append([]string{orig}, c.runtime...)}.Run(t, c.main)
			require.NoError(t, err)
			require.True(t, strings.HasPrefix(want, c.prefix), "output %q", want)
			for _, mode := range []rewrite.Mode{rewrite.ModeBeat, rewrite.ModeSystrace} {
				out, res := runPipeline(t, mode, 2, orig)
				require.Empty(t, res.Warnings)
				require.Positive(t, res.Rewritten)
				assert.Empty(t, res.Skipped, "%s: every method can be instrumented", mode)
				jar := filepath.Join(out, filepath.Base(orig))
				deps := append([]string{javatest.Jar(t, javatest.BeatStub(t)), javatest.Jar(t, javatest.SystraceStub(t))}, c.runtime...)
				v := javatest.RequireVerified(t, jar, deps...)
				assert.Equal(t, len(v.Classes), len(v.OK))
				got, stderr, err := stubJVM(t, mode, append([]string{jar}, c.runtime...)...).Run(t, c.main)
				require.NoError(t, err, stderr)
				assert.Equal(t, want, got, "%s: output changed", mode)
				if mode == rewrite.ModeBeat {
					rep, err := javatest.ParseStubReport(stderr)
					require.NoError(t, err)
					assert.True(t, rep.Balanced(), "%s: unbalanced: %+v", mode, rep)
					assert.Positive(t, rep.Enter)
				} else {
					rep, err := javatest.ParseTraceReport(stderr)
					require.NoError(t, err)
					assert.True(t, rep.Balanced(), "%s: unbalanced: %+v", mode, rep)
					assert.Positive(t, rep.Begin)
				}
			}
		})
	}
}
