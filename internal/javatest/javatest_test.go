package javatest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type fixtureSet struct {
	name    string
	compile func(testing.TB) string
	major   uint16
	minor   uint16
	// mustHave are class entries whose absence would mean the set lost a
	// feature it exists to cover.
	mustHave []string
}

var fixtureSets = []fixtureSet{
	{"classfile", ClassfileFixtures, 61, 0, []string{
		"cf/BigMethod.class", "cf/WideLocals.class", "cf/BigSwitch.class", "cf/ManyConstants.class",
		"cf/Shapes$Shape.class", "cf/Records$Point.class", "cf/Nest$Inner$Deeper.class", "cf/Enums$1.class",
		"cf/InnerClasses$1Local.class", "cf/Constructors$Holder.class", "cf/Annotations.class",
	}},
	{"preview", ClassfilePreviewFixtures, 61, 0xFFFF, []string{"cfpreview/SwitchPatterns.class"}},
	{"release8", ClassfileRelease8Fixtures, 52, 0, []string{"cf8/Legacy.class", "cf8/Legacy$Inner.class"}},
}

func TestFixtureSetsCompileWithTheirVersion(t *testing.T) {
	RequireJava(t)
	for _, set := range fixtureSets {
		t.Run(set.name, func(t *testing.T) {
			classes := ClassFiles(t, set.compile(t))
			for _, name := range set.mustHave {
				assert.Contains(t, classes, name)
			}
			for name, data := range classes {
				require.GreaterOrEqual(t, len(data), 8, name)
				minor := binary.BigEndian.Uint16(data[4:])
				major := binary.BigEndian.Uint16(data[6:])
				assert.Equal(t, [2]uint16{set.major, set.minor}, [2]uint16{major, minor}, "version of %s", name)
			}
		})
	}
}

func TestJavacCachesByOptions(t *testing.T) {
	RequireJava(t)
	src := Testdata(t, "classfile", "release8")
	a := Javac(t, Release8Options, src)
	b := Javac(t, Release8Options, src)
	c := Javac(t, Options{Release: 8}, src) // no -g: a different compilation
	assert.Equal(t, a, b, "same sources and options must share one compilation")
	assert.NotEqual(t, a, c, "different options must not share a compilation")

	debug := ClassFiles(t, a)["cf8/Legacy.class"]
	plain := ClassFiles(t, c)["cf8/Legacy.class"]
	assert.True(t, bytes.Contains(debug, []byte("LocalVariableTable")), "-g output lacks LocalVariableTable")
	assert.False(t, bytes.Contains(plain, []byte("LocalVariableTable")), "default output has LocalVariableTable")
}

func TestJavacReportsCompileErrors(t *testing.T) {
	RequireJava(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Broken.java"), []byte("class Broken { int x = ; }"), 0o644))
	tb := &recordingTB{TB: t}
	tb.run(func() { Javac(tb, Options{Release: 17}, dir) })
	assert.Contains(t, tb.fatal, "Broken.java")
}

func TestJarIsDeterministicAndComplete(t *testing.T) {
	RequireJava(t)
	dir := ClassfileFixtures(t)
	first, err := os.ReadFile(Jar(t, dir))
	require.NoError(t, err)
	secondPath := Jar(t, dir)
	second, err := os.ReadFile(secondPath)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(first, second), "two jars of the same directory differ")
	assert.Equal(t, ClassFiles(t, dir), ClassFiles(t, secondPath))
}

func TestVerifyAcceptsJavacOutput(t *testing.T) {
	RequireJava(t)
	for _, set := range fixtureSets {
		t.Run(set.name, func(t *testing.T) {
			classes := ClassFiles(t, set.compile(t))
			r := Verify(t, Jar(t, set.compile(t)))
			assert.Zero(t, r.Failures(), "%s", r)
			assert.Len(t, r.Classes, len(classes))
			assert.Equal(t, r.Classes, r.OK)
			// Proof that HotSpot's verifier looked at every class, not
			// just that nothing complained.
			assert.Equal(t, r.Classes, r.Verified)
		})
	}
}

func TestVerifyDetectsBrokenClasses(t *testing.T) {
	RequireJava(t)
	cf := ClassFiles(t, ClassfileFixtures(t))
	r8 := ClassFiles(t, ClassfileRelease8Fixtures(t))

	zeroMaxStack := func(entry, method, desc string) func(t *testing.T, classes map[string][]byte) {
		return func(t *testing.T, classes map[string][]byte) {
			off, err := codeAttributeOffset(classes[entry], method, desc)
			require.NoError(t, err)
			binary.BigEndian.PutUint16(classes[entry][off:], 0)
		}
	}
	version50 := func(t *testing.T, classes map[string][]byte) {
		binary.BigEndian.PutUint16(classes["cf8/Legacy8Switch.class"][6:], 50)
	}
	tests := []struct {
		name         string
		classes      map[string][]byte
		patch        func(t *testing.T, classes map[string][]byte)
		verifyErrors []string
		failovers    []string
		linkErrors   []string
	}{
		{
			name:         "max_stack 0 in a static method",
			classes:      cf,
			patch:        zeroMaxStack("cf/Arith.class", "series", "(I)D"),
			verifyErrors: []string{"cf.Arith"},
		},
		{
			name:         "broken superclass constructor also fails the subclass",
			classes:      cf,
			patch:        zeroMaxStack("cf/Shapes$Polygon.class", "<init>", "(I)V"),
			verifyErrors: []string{"cf.Shapes$Polygon"},
			linkErrors:   []string{"cf.Shapes$Hexagon"},
		},
		{
			name:    "version 50 with intact StackMapTable",
			classes: r8,
			patch:   version50,
		},
		{
			name:    "version 50 without StackMapTable fails over",
			classes: r8,
			patch: func(t *testing.T, classes map[string][]byte) {
				version50(t, classes)
				data := classes["cf8/Legacy8Switch.class"]
				i := bytes.Index(data, []byte("StackMapTable"))
				require.GreaterOrEqual(t, i, 0)
				data[i+len("StackMapTable")-1] = 'X' // now an unknown attribute
			},
			failovers: []string{"cf8.Legacy8Switch"},
		},
		{
			name:    "missing superclass",
			classes: cf,
			patch: func(t *testing.T, classes map[string][]byte) {
				delete(classes, "cf/Shapes$Polygon.class")
			},
			linkErrors: []string{"cf.Shapes$Hexagon"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			classes := map[string][]byte{}
			for name, data := range tc.classes {
				classes[name] = append([]byte(nil), data...)
			}
			tc.patch(t, classes)
			r := Verify(t, WriteJar(t, classes))
			assert.Equal(t, sortedOrEmpty(tc.verifyErrors), sortedKeys(r.VerifyErrors), "%s", r)
			assert.Equal(t, sortedOrEmpty(tc.failovers), append([]string{}, r.Failovers...), "%s", r)
			assert.Equal(t, sortedOrEmpty(tc.linkErrors), sortedKeys(r.LinkErrors), "%s", r)
			assert.Len(t, r.Classes, len(classes))
			assert.Len(t, r.OK, len(classes)-r.Failures())
			for _, msg := range r.VerifyErrors {
				assert.Contains(t, msg, "java.lang.VerifyError")
			}
		})
	}
}

func sortedOrEmpty(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func TestRunFixturePrograms(t *testing.T) {
	RequireJava(t)
	tests := []struct {
		name  string
		jvm   JVM
		main  string
		want  string
		fails bool
	}{
		{
			name: "release 8",
			jvm:  JVM{Classpath: []string{ClassfileRelease8Fixtures(t)}},
			main: "cf8.Legacy",
			want: "collide Aaxyz=3;collide BB5pos\n",
		},
		{
			name: "preview needs --enable-preview",
			jvm:  JVM{Classpath: []string{ClassfilePreviewFixtures(t)}, Flags: []string{"--enable-preview"}},
			main: "cfpreview.SwitchPatterns",
			want: "int 7|big int 700|empty string|string 2|null|longs 2|other Double|6\n",
		},
		{
			name:  "preview without the flag",
			jvm:   JVM{Classpath: []string{ClassfilePreviewFixtures(t)}},
			main:  "cfpreview.SwitchPatterns",
			fails: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := tc.jvm.Run(t, tc.main)
			if tc.fails {
				require.Error(t, err)
				return
			}
			require.NoError(t, err, stderr)
			assert.Equal(t, tc.want, stdout)
		})
	}
}

// stubCheckClasses compiles the stub self-check program against both stubs.
func stubCheckClasses(t *testing.T) string {
	return Javac(t, Options{Release: 17, Classpath: []string{BeatStub(t), SystraceStub(t)}},
		Testdata(t, "runtime", "selfcheck"))
}

func TestBeatStubCounts(t *testing.T) {
	RequireJava(t)
	check := stubCheckClasses(t)
	balancedLog := []string{
		"main i 1", "main i 2", "main i 3", "main o 3", "main o 2",
		"main at stubcheck.StubCheck$FocusActivity true", "main at stubcheck.StubCheck$FocusActivity false",
		"main at android.app.Activity true", "stub_worker i 10", "stub_worker o 10", "main o 1",
	}
	focusBy := map[string]int{"stubcheck.StubCheck$FocusActivity": 2, "android.app.Activity": 1}
	tests := []struct {
		mode string
		want StubReport
		log  []string
	}{
		{"balanced", StubReport{Enter: 4, Exit: 4, Threads: 2, Focus: 3, MaxDepth: 3, FocusByClass: focusBy}, balancedLog},
		{"unbalanced", StubReport{Enter: 7, Exit: 6, Mismatched: 2, Open: 1, OpenEnded: 1, Threads: 2, Focus: 3, MaxDepth: 3,
			FocusByClass: focusBy},
			append(append([]string{}, balancedLog...), "main i 4", "main i 5", "main o 4", "main o 99", "main i 6")},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "beat.log")
			jvm := BeatStubJVM(t, check)
			jvm.Classpath = append(jvm.Classpath, SystraceStub(t))
			jvm.Props = map[string]string{"beatstub.log": logPath}
			stdout, stderr, err := jvm.Run(t, "stubcheck.StubCheck", "beat", tc.mode)
			require.NoError(t, err, stderr)
			assert.Equal(t, "stubcheck done\n", stdout)
			report, err := ParseStubReport(stderr)
			require.NoError(t, err)
			assert.Equal(t, tc.want, report)
			assert.Equal(t, tc.mode == "balanced", report.Balanced())
			events, err := ReadStubLog(logPath)
			require.NoError(t, err)
			assert.Equal(t, tc.log, formatStubEvents(events))
		})
	}
}

func formatStubEvents(events []StubEvent) []string {
	var out []string
	for _, e := range events {
		if e.Op == "at" {
			out = append(out, fmt.Sprintf("%s at %s %t", e.Thread, e.Class, e.Focus))
		} else {
			out = append(out, fmt.Sprintf("%s %s %d", e.Thread, e.Op, e.ID))
		}
	}
	return out
}

func TestSystraceStubCounts(t *testing.T) {
	RequireJava(t)
	check := stubCheckClasses(t)
	balancedLog := []TraceEvent{
		{"main", "b", "outer"}, {"main", "b", "inner"}, {"main", "e", ""},
		{"trace_worker", "b", "worker"}, {"trace_worker", "e", ""}, {"main", "e", ""},
	}
	tests := []struct {
		mode string
		want TraceReport
		log  []TraceEvent
	}{
		{"balanced", TraceReport{Begin: 3, End: 3, Threads: 2, MaxDepth: 2}, balancedLog},
		{"unbalanced", TraceReport{Begin: 4, End: 4, Unmatched: 1, Open: 1, OpenEnded: 1, Threads: 2, MaxDepth: 2},
			append(append([]TraceEvent{}, balancedLog...), TraceEvent{"main", "e", ""}, TraceEvent{"main", "b", "left open"})},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "trace.log")
			jvm := SystraceStubJVM(t, check, BeatStub(t))
			jvm.Props = map[string]string{"tracestub.log": logPath}
			stdout, stderr, err := jvm.Run(t, "stubcheck.StubCheck", "trace", tc.mode)
			require.NoError(t, err, stderr)
			assert.Equal(t, "long name rejected\nstubcheck done\n", stdout)
			report, err := ParseTraceReport(stderr)
			require.NoError(t, err)
			assert.Equal(t, tc.want, report)
			assert.Equal(t, tc.mode == "balanced", report.Balanced())
			events, err := ReadTraceLog(logPath)
			require.NoError(t, err)
			assert.Equal(t, tc.log, events)
		})
	}
}

func TestStubReportWithoutCalls(t *testing.T) {
	RequireJava(t)
	// An uninstrumented program never calls the stub; the agent still
	// makes it report, so "nothing was called" is distinguishable from
	// "the report is missing".
	stdout, stderr, err := BeatStubJVM(t, ClassfileRelease8Fixtures(t)).Run(t, "cf8.Legacy")
	require.NoError(t, err, stderr)
	assert.Equal(t, "collide Aaxyz=3;collide BB5pos\n", stdout)
	report, err := ParseStubReport(stderr)
	require.NoError(t, err)
	assert.Equal(t, StubReport{FocusByClass: map[string]int{}}, report)

	_, stderr, err = Run(t, []string{ClassfileRelease8Fixtures(t), BeatStub(t)}, "cf8.Legacy")
	require.NoError(t, err, stderr)
	_, err = ParseStubReport(stderr)
	assert.ErrorIs(t, err, ErrNoReport, "without the agent the stub never loads")
}

func TestParseStubReportRejectsBadLines(t *testing.T) {
	const good = "beatstub: enter=1 exit=1 mismatched=0 open=0 openended=0 threads=1 focus=0 maxdepth=1 focusby="
	tests := []struct {
		name, stderr, wantErr string
	}{
		{"no line", "Exception in thread main\n", "no stub report"},
		{"two lines", good + "\n" + good + "\n", "2 beatstub: lines"},
		{"missing field", "beatstub: enter=1 exit=1\n", "missing mismatched"},
		{"extra field", good + " extra=1\n", "unexpected fields"},
		{"bad number", strings.Replace(good, "enter=1", "enter=x", 1), "enter"},
		{"bad focusby", strings.Replace(good, "focusby=", "focusby=A", 1), "focusby"},
		{"no equals", good + " junk\n", "has no '='"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseStubReport(tc.stderr)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
	r, err := ParseStubReport("noise\n" + strings.Replace(good, "focusby=", "focusby=a.B$C:2,d.E:1", 1) + "\nmore noise")
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"a.B$C": 2, "d.E": 1}, r.FocusByClass)
}

func TestRequireJavaFailsOnCIOnly(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no javac or java here
	for _, ci := range []string{"true", ""} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			tb := &recordingTB{TB: t}
			tb.run(func() { RequireJava(tb) })
			if ci == "true" {
				assert.Contains(t, tb.fatal, "CI=true")
				assert.Empty(t, tb.skipped)
			} else {
				assert.Empty(t, tb.fatal)
				assert.Contains(t, tb.skipped, "not found")
			}
		})
	}
}

// recordingTB records Fatalf/Skipf instead of ending the real test, so the
// helpers' failure paths can be tested.
type recordingTB struct {
	testing.TB
	fatal, skipped string
}

type stopTB struct{}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(stopTB{})
}

func (r *recordingTB) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	panic(stopTB{})
}

func (r *recordingTB) run(f func()) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(stopTB); !ok {
				panic(v)
			}
		}
	}()
	f()
}
