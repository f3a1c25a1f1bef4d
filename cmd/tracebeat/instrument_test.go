package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// runTool runs the command in-process, as main does.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runMain(args, &out, &errb)
	return code, out.String(), errb.String()
}

// fixtureClasses is the javac output of the instrumenter fixtures (shared:
// read-only).
func insFixtureClasses(t *testing.T) string {
	t.Helper()
	javatest.RequireJava(t)
	return javatest.InstrumentFixtures(t)
}

// fixtureJar packs the instrumenter fixtures into a jar of the test's own.
func insFixtureJar(t *testing.T) string {
	t.Helper()
	return javatest.Jar(t, insFixtureClasses(t))
}

// writeFile writes content to dir/name and returns the path.
func writeTestFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

var summaryLineRe = regexp.MustCompile(`^tracebeat: inputs=(\d+) classes=(\d+) rewritten=(\d+) methods traced=(\d+) ignored=(\d+) skipped=(\d+)(?: \([^)]*\))? focus=(\d+) seconds=[0-9.]+ build=[0-9a-f]{16} map=(\S+)$`)

// TestInstrumentSummary runs a mirror build from an argfile and checks the
// summary against the files written: the first line keeps the format
// scripts parse, the detail lines agree with the maps and the report.
func TestInstrumentSummary(t *testing.T) {
	jar := insFixtureJar(t)
	classes := javatest.CopyDir(t, insFixtureClasses(t))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	report := filepath.Join(dir, "reports", "report.json")
	argfile := writeTestFile(t, dir, "inputs.args", "# inputs\n\n"+jar+"\n  "+classes+"  \n--report\n"+report+"\n")

	code, stdout, stderr := runCLI("instrument", "-o", out, "@"+argfile)
	require.Equal(t, exitOK, code, stderr)
	assert.NotContains(t, stderr, "\r", "no progress bar when stderr is not a terminal")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	m := summaryLineRe.FindStringSubmatch(lines[0])
	require.NotNil(t, m, "first line must keep the summary format:\n%s", stdout)
	assert.Equal(t, "2", m[1], "inputs")
	mapPath := filepath.Join(out, "methodMapping.txt")
	assert.Equal(t, mapPath, m[8])

	mm, err := methodmap.ReadMapFile(mapPath)
	require.NoError(t, err)
	traced, _ := strconv.Atoi(m[4])
	assert.Equal(t, len(mm.Entries)-1, traced, "traced = map entries without the dispatch entry")

	var rep methodmap.Report
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &rep))
	ignored, _ := strconv.Atoi(m[5])
	assert.Equal(t, rep.Ignored, ignored)
	require.NotEmpty(t, rep.Counts)

	details := map[string][]string{}
	for _, l := range lines[1:] {
		require.True(t, strings.HasPrefix(l, "  "), "detail lines are indented (scripts read only 'tracebeat:' lines): %q", l)
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		require.True(t, ok, l)
		details[k] = append(details[k], strings.TrimSpace(v))
	}
	assert.Equal(t, []string{"2 (1 jar, 1 directory)"}, details["inputs"])
	assert.Equal(t, []string{fmt.Sprintf("%d traced, %d ignored", traced, ignored)}, details["methods"])
	// ignored by reason: every count of the report, most frequent first.
	require.Len(t, details["ignored"], 1)
	var counts []int
	seen := map[string]int{}
	for _, f := range strings.Fields(details["ignored"][0]) {
		r, n, ok := strings.Cut(f, "=")
		require.True(t, ok, f)
		c, err := strconv.Atoi(n)
		require.NoError(t, err)
		seen[r] = c
		counts = append(counts, c)
	}
	want := map[string]int{}
	for r, n := range rep.Counts {
		want[string(r)] = n
	}
	assert.Equal(t, want, seen)
	assert.True(t, sort.SliceIsSorted(counts, func(i, j int) bool { return counts[i] > counts[j] }), "most frequent first: %v", counts)
	assert.ElementsMatch(t, []string{filepath.Join(out, filepath.Base(jar)), filepath.Join(out, filepath.Base(classes))}, details["output"])
	for _, o := range details["output"] {
		_, err := os.Stat(o)
		assert.NoError(t, err, "output %s", o)
	}
	assert.Equal(t, []string{mapPath}, details["method map"])
	assert.Equal(t, []string{filepath.Join(out, "ignoreMethodMapping.txt")}, details["ignore map"])
	assert.Equal(t, []string{report}, details["report"])
}

// TestInstrumentConfig checks the --config file: options and inputs come
// from it, list options repeat, and the command line wins.
func TestInstrumentConfig(t *testing.T) {
	jar := insFixtureJar(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "merged.jar")
	ignoredOut := filepath.Join(dir, "from-config.jar")
	mapPath := filepath.Join(dir, "maps", "m.txt")
	cfg := writeTestFile(t, dir, "tb.conf", strings.Join([]string{
		"# written by a build tool",
		"mode = systrace",
		"merge = true",
		"output = " + ignoredOut,
		"method-map = " + mapPath,
		"input = " + jar,
		"classpath = " + javatest.BeatStub(t),
		"classpath = " + javatest.SystraceStub(t),
		"",
	}, "\n"))
	code, stdout, stderr := runCLI("instrument", "--config", cfg, "-o", out, "--quiet")
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stdout, "--quiet prints no summary")
	assert.Empty(t, stderr)
	assert.FileExists(t, out, "-o on the command line wins over output in the config")
	assert.NoFileExists(t, ignoredOut)
	assert.FileExists(t, mapPath)
	assert.FileExists(t, filepath.Join(dir, "maps", "ignoreMethodMapping.txt"))
	classes := javatest.ClassFiles(t, out)
	require.Contains(t, classes, "ins/Throwing.class")
	assert.True(t, bytes.Contains(classes["ins/Throwing.class"], []byte("beginSection")), "mode = systrace from the config")
}

func TestInstrumentUsageErrors(t *testing.T) {
	dir := t.TempDir()
	jar := javatest.WriteJar(t, map[string][]byte{"res.txt": []byte("x")})
	badKey := writeTestFile(t, dir, "badkey.conf", "mode = beat\n\nnonsense = 1\n")
	badValue := writeTestFile(t, dir, "badvalue.conf", "merge = perhaps\n")
	noEquals := writeTestFile(t, dir, "noequals.conf", "# x\nmerge\n")
	nested := writeTestFile(t, dir, "nested.conf", "config = other.conf\n")
	tests := []struct {
		name    string
		args    []string
		code    int
		wantErr string
	}{
		{"no inputs", []string{"-o", dir}, exitUsage, "no inputs"},
		{"no output", []string{jar}, exitUsage, "-o is required"},
		{"unknown flag", []string{"--frobnicate", jar}, exitUsage, "unknown flag: --frobnicate"},
		{"bad mode", []string{"--mode", "loud", "-o", dir, jar}, exitUsage, `--mode: unknown mode "loud"`},
		{"bad workers", []string{"--workers", "-1", "-o", dir, jar}, exitUsage, "--workers must be 0 (one per CPU) or more, got -1"},
		{"bad log level", []string{"--log-level", "chatty", "-o", dir, jar}, exitUsage, "--log-level"},
		{"bad log format", []string{"--log-format", "xml", "-o", dir, jar}, exitUsage, `--log-format: want console or json, got "xml"`},
		{"config: unknown key", []string{"--config", badKey, "-o", dir, jar}, exitUsage, "config " + badKey + `:3: unknown option "nonsense"`},
		{"config: bad value", []string{"--config", badValue, "-o", dir, jar}, exitUsage, "config " + badValue + ":1: merge"},
		{"config: no equals", []string{"--config", noEquals, "-o", dir, jar}, exitUsage, "config " + noEquals + `:2: want "key = value", got "merge"`},
		{"config: nested config", []string{"--config", nested, "-o", dir, jar}, exitUsage, "config " + nested + `:1: unknown option "config"`},
		{"config: missing", []string{"--config", filepath.Join(dir, "none.conf"), "-o", dir, jar}, exitFailure, "config " + filepath.Join(dir, "none.conf") + ": no such file or directory"},
		{"argfile: missing", []string{"-o", dir, "@" + filepath.Join(dir, "none.args")}, exitFailure, "argfile " + filepath.Join(dir, "none.args") + ": no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"instrument"}, tc.args...)...)
			assert.Equal(t, tc.code, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "tracebeat instrument: "+tc.wantErr)
			if tc.code == exitUsage {
				assert.Contains(t, stderr, "Run 'tracebeat instrument --help' for usage.")
			}
		})
	}
}

func TestExpandArgfiles(t *testing.T) {
	dir := t.TempDir()
	f := writeTestFile(t, dir, "a.args", "# comment\n\n  --merge  \r\n-o\nout dir/x.jar\n@not-expanded\n")
	got, err := expandArgfiles([]string{"first", "@" + f, "@@literal", "last"})
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "--merge", "-o", "out dir/x.jar", "@not-expanded", "@literal", "last"}, got,
		"lines trimmed, comments and blanks skipped, no nested expansion, @@ escapes")
}

// TestInstrumentLogFormat checks warnings in both log formats and that
// --log-level / --quiet filter them. The warning is an unparsable class.
func TestInstrumentLogFormat(t *testing.T) {
	jar := javatest.WriteJar(t, map[string][]byte{"a/Broken.class": {0xCA, 0xFE, 0xBA, 0xBE, 0, 0}})
	tests := []struct {
		name  string
		flags []string
		check func(t *testing.T, stderr string)
	}{
		{"console", nil, func(t *testing.T, stderr string) {
			assert.Regexp(t, `(?m)^warn\s+.*classes\.jar: a/Broken\.class: cannot parse, copied untouched`, stderr)
		}},
		{"json", []string{"--log-format", "json"}, func(t *testing.T, stderr string) {
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			require.Len(t, lines, 1, stderr)
			var rec map[string]any
			require.NoError(t, json.Unmarshal([]byte(lines[0]), &rec), lines[0])
			assert.Equal(t, "warn", rec["level"])
			assert.Contains(t, rec["msg"], "a/Broken.class: cannot parse")
		}},
		{"level error", []string{"--log-level", "error"}, func(t *testing.T, stderr string) { assert.Empty(t, stderr) }},
		{"quiet", []string{"--quiet"}, func(t *testing.T, stderr string) { assert.Empty(t, stderr) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"instrument", "-o", filepath.Join(t.TempDir(), "out")}, tc.flags...)
			code, _, stderr := runCLI(append(args, jar)...)
			require.Equal(t, exitOK, code, stderr)
			tc.check(t, stderr)
		})
	}
}

// TestHelp checks that every command answers --help on stdout with exit 0,
// and that the commands of this file carry examples and exit codes.
func TestHelp(t *testing.T) {
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(name, "--help")
			assert.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stdout, "usage: tracebeat "+name)
			assert.Contains(t, stdout, "Examples:")
			code2, stdout2, _ := runCLI("help", name)
			assert.Equal(t, exitOK, code2)
			assert.Equal(t, stdout, stdout2, "'help CMD' is 'CMD --help'")
		})
	}
	for _, name := range []string{"instrument", "inspect", "version"} {
		_, stdout, _ := runCLI(name, "--help")
		assert.Contains(t, stdout, "Exit status: 0 ok, ", name)
	}
	code, stdout, _ := runCLI("--help")
	assert.Equal(t, exitOK, code)
	for name := range commands {
		assert.Contains(t, stdout, "  "+name+" ")
	}
	assert.Contains(t, stdout, "Exit status: 0 ok, 1 failure, 2 usage")

	code, stdout, stderr := runCLI()
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "usage: tracebeat COMMAND")

	code, _, stderr = runCLI("frobnicate")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown command "frobnicate"`)
}

func TestVersion(t *testing.T) {
	code, stdout, stderr := runCLI("version")
	require.Equal(t, exitOK, code, stderr)
	// The version is the VERSION file's, the one scripts/release.sh stamps.
	assert.Regexp(t, `^tracebeat `+regexp.QuoteMeta(tracebeat.Version())+` \(go[0-9][^ ]* [a-z0-9]+/[a-z0-9]+[,)]`, stdout)
	assert.Regexp(t, `^\d+\.\d+\.\d+`, tracebeat.Version())
	_, stdout2, _ := runCLI("--version")
	assert.Equal(t, stdout, stdout2)

	code, _, stderr = runCLI("version", "extra")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unexpected argument "extra"`)

	info := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abc"}, {Key: "vcs.modified", Value: "true"}}}
	assert.Regexp(t, `^tracebeat 1\.2\.3 \(go\S+ \S+/\S+, revision 0123abc\+dirty\)$`, versionLine("1.2.3", info))
	info.Settings[1].Value = "false"
	assert.Regexp(t, `, revision 0123abc\)$`, versionLine("1.2.3", info))
	assert.NotContains(t, versionLine("1.2.3", nil), "revision")
}

// fakeClock is a settable time source for the progress bar.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time                         { return c.t }
func (c *fakeClock) advance(d time.Duration)                { c.t = c.t.Add(d) }
func newFakeClock() *fakeClock                              { return &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)} }
func countRedraws(s string) int                             { return strings.Count(s, "\r[") }
func lastDrawn(s string) string                             { return s[strings.LastIndex(s, "\r[")+1:] }
func blankLine(width int) string                            { return "\r" + strings.Repeat(" ", width) + "\r" }
func progressOn(w *bytes.Buffer, c *fakeClock) *progressBar { return newProgressBar(w, true, c.now) }

func TestProgressBarThrottleAndClear(t *testing.T) {
	var buf bytes.Buffer
	clock := newFakeClock()
	bar := progressOn(&buf, clock)
	bar.Update(1, 400) // first update always draws
	assert.Equal(t, 1, countRedraws(buf.String()))
	for i := 2; i <= 9; i++ { // 8 updates within 80 ms: not drawn
		clock.advance(10 * time.Millisecond)
		bar.Update(i, 400)
	}
	assert.Equal(t, 1, countRedraws(buf.String()), "at most one redraw per 100 ms")
	clock.advance(30 * time.Millisecond)
	bar.Update(10, 400)
	assert.Equal(t, 2, countRedraws(buf.String()))
	assert.Contains(t, lastDrawn(buf.String()), " 10/400 classes")

	// A log line clears the bar first, so it starts at the beginning of an
	// empty line.
	drawnWidth := len(progressLine(10, 400, 110*time.Millisecond))
	fmt.Fprint(bar.Writer(), "warn\tsomething\n")
	assert.True(t, strings.HasSuffix(buf.String(), blankLine(drawnWidth)+"warn\tsomething\n"), "%q", buf.String())

	clock.advance(time.Millisecond)
	bar.Update(400, 400) // the last update is always drawn
	assert.Equal(t, 3, countRedraws(buf.String()))
	assert.Contains(t, lastDrawn(buf.String()), "400/400 classes 100%")

	before := buf.Len()
	bar.Finish()
	assert.Equal(t, blankLine(len(progressLine(400, 400, 111*time.Millisecond))), buf.String()[before:], "the line is cleared at the end")
}

func TestProgressBarOffWhenNotTerminal(t *testing.T) {
	var buf bytes.Buffer
	bar := newProgressBar(&buf, isTerminal(&buf), nil)
	for i := 1; i <= 100; i++ {
		bar.Update(i, 100)
	}
	bar.Finish()
	fmt.Fprint(bar.Writer(), "log\n")
	assert.Equal(t, "log\n", buf.String())

	f, err := os.CreateTemp(t.TempDir(), "stderr")
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f), "a regular file is not a terminal")
}

func TestProgressLine(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{0, 200, 0, "[....................]   0/200 classes   0%"},
		{50, 200, 10 * time.Second, "[#####...............]  50/200 classes  25%  5/s  ETA 0:30"},
		{200, 200, 4 * time.Second, "[####################] 200/200 classes 100%  50/s"},
		{1, 7201, time.Second, "[....................]    1/7201 classes   0%  1/s  ETA 2:00:00"},
		{0, 0, 0, "[####################] 0/0 classes 100%"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, progressLine(tc.done, tc.total, tc.elapsed))
	}
}

// TestGeneratedClassRule: Android's generated classes (R, R$*,
// BuildConfig, Manifest, Manifest$* next to an Android R, even one in
// another jar) are left untraced with the rule as the reason; classes of
// the same names elsewhere are traced; --trace-all traces them all; with
// --cache, removing the jar that held a library's R makes its BuildConfig
// traced again (the cached scan is not trusted for it).
func TestGeneratedClassRule(t *testing.T) {
	javatest.RequireJava(t)
	compile := func(dir string) map[string][]byte {
		return javatest.ClassFiles(t, javatest.Javac(t, javatest.Options{Release: 8}, javatest.Testdata(t, "generated", dir)))
	}
	lib := compile("lib")
	libR, libBC := map[string][]byte{}, map[string][]byte{}
	for name, data := range lib {
		if strings.Contains(name, "/R") {
			libR[name] = data
		} else {
			libBC[name] = data
		}
	}
	work := t.TempDir()
	jar := func(name string, classes map[string][]byte) string {
		p := filepath.Join(work, name)
		require.NoError(t, os.Rename(javatest.WriteJar(t, classes), p))
		return p
	}
	app, rJar, bcJar, other := jar("app.jar", compile("app")), jar("lib-r.jar", libR), jar("lib-bc.jar", libBC), jar("other.jar", compile("other"))
	cache := filepath.Join(work, "cache")

	generated := []string{
		"com.example.app.R$string lookup (I)I",
		"com.example.app.BuildConfig describe (I)Ljava.lang.String;",
		"com.example.app.Manifest all ()Ljava.lang.String;",
		"com.example.app.Manifest$permission length ()I",
		"com.example.lib.BuildConfig version (I)I",
	}
	traced := []string{
		"com.example.app.Main main ([Ljava.lang.String;)V",
		"lib.meta.Manifest add (Ljava.lang.String;)I",
		"lib.meta.Manifest$Section size (Ljava.lang.String;)I",
		"lib.meta.BuildConfig level (I)I",
		"lib.math.R reduce (II)I",
		"lib.math.R$Helper gcd (II)I",
	}
	run := func(args ...string) (methodMap, report string) {
		out := t.TempDir()
		rep := filepath.Join(out, "report.json")
		code, _, stderr := runCLI(append([]string{"instrument", "--quiet", "-o", out, "--report", rep}, args...)...)
		require.Equal(t, 0, code, stderr)
		m, err := os.ReadFile(filepath.Join(out, "methodMapping.txt"))
		require.NoError(t, err)
		r, err := os.ReadFile(rep)
		require.NoError(t, err)
		return string(m), string(r)
	}
	inMap := func(m, method string) bool { return strings.Contains(m, ","+method+"\n") }

	for _, withCache := range []bool{false, true} {
		var extra []string
		if withCache {
			extra = []string{"--cache", cache}
		}
		m, report := run(append(extra, app, rJar, bcJar, other)...)
		for _, g := range generated {
			assert.False(t, inMap(m, g), "%s is generated: not traced", g)
		}
		for _, tr := range traced {
			assert.True(t, inMap(m, tr), "%s is traced", tr)
		}
		assert.Contains(t, report, `"class": "com.example.lib.BuildConfig",
      "method": "version",
      "desc": "(I)I",
      "access": 9,
      "reason": "blocked"`)

		// Without the library's R jar, its BuildConfig is an ordinary class.
		m, _ = run(append(extra, app, bcJar, other)...)
		assert.True(t, inMap(m, "com.example.lib.BuildConfig version (I)I"), "cache=%v", withCache)
		assert.False(t, inMap(m, "com.example.app.BuildConfig describe (I)Ljava.lang.String;"))
	}

	m, _ := run("--trace-all", app, rJar, bcJar, other)
	for _, g := range append(generated, traced...) {
		assert.True(t, inMap(m, g), "--trace-all traces %s", g)
	}
}
