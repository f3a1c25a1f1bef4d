package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/methodmap"
)

const dispatchLine = "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n"

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withJarScanner replaces scanInstrumentedJar for one test.
func withJarScanner(t *testing.T, f func(string) ([]methodmap.InstrumentedMethod, error)) {
	t.Helper()
	saved := scanInstrumentedJar
	scanInstrumentedJar = func(path string, _ checkJarConfig) ([]methodmap.InstrumentedMethod, error) { return f(path) }
	t.Cleanup(func() { scanInstrumentedJar = saved })
}

func TestCheckCommand(t *testing.T) {
	good := writeTemp(t, "good.txt", "1,1,a.A run ()V\n2,1,a.B stop ()V\n"+dispatchLine)
	changed := writeTemp(t, "changed.txt", "1,1,a.A run ()V\n3,1,a.B stop ()V\n"+dispatchLine)
	reused := writeTemp(t, "reused.txt", "1,1,a.A run ()V\n2,1,a.C other ()V\n"+dispatchLine)
	broken := writeTemp(t, "broken.txt", "1,1,a.A run ()V\n1,1,a.B stop ()V\nnonsense\n9999999,1,a.C x ()V\n")
	badBase := writeTemp(t, "badbase.txt", "1,1,a.A run ()V\n2,1,a.B stop\n")

	var many strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&many, "%d,1,a.A m ()V\n", i) // 59 duplicate methods + missing dispatch
	}
	manyPath := writeTemp(t, "many.txt", many.String())

	tests := []struct {
		name      string
		args      []string
		wantCode  int
		wantOut   []string // substrings of stdout, in order
		wantErr   string   // substring of stderr
		wantNoOut bool
		wantLines int // number of stdout lines, when > 0
	}{
		{name: "clean map", args: []string{"--map", good}, wantCode: 0,
			wantOut: []string{"check: map=" + good + " entries=3 base=none jar=none violations=0\n"}, wantLines: 1},
		{name: "broken map", args: []string{"--map", broken}, wantCode: 1,
			wantOut: []string{
				broken + ":3: want <id>,<access>",
				broken + ":2: duplicate id 1",
				broken + ":4: id 9999999 of a.C x ()V is out of range",
				broken + ": missing the dispatch entry",
				"violations=4\n"}},
		{name: "base: same", args: []string{"--map", good, "--base", good}, wantCode: 0,
			wantOut: []string{"base=" + good + " jar=none violations=0"}},
		{name: "base: changed id", args: []string{"--map", changed, "--base", good}, wantCode: 1,
			wantOut: []string{changed + ":2: method a.B stop ()V has id 3, but id 2 at " + good + ":2", "violations=1\n"}},
		{name: "base: reused id", args: []string{"--map", reused, "--base", good}, wantCode: 1,
			wantOut: []string{"method a.B stop ()V is missing", reused + ":2: id 2 names a.C other ()V, but a.B stop ()V", "violations=2\n"}},
		{name: "base with syntax error", args: []string{"--map", good, "--base", badBase}, wantCode: 1,
			wantOut: []string{badBase + ":2: missing descriptor", "violations=1\n"}},
		{name: "output capped", args: []string{"--map", manyPath}, wantCode: 1,
			wantOut: []string{"... and 10 more violations\n", "violations=60\n"}, wantLines: 52},
		{name: "missing map file", args: []string{"--map", filepath.Join(t.TempDir(), "absent.txt")}, wantCode: 1,
			wantErr: "absent.txt: no such file", wantNoOut: true},
		{name: "missing base file", args: []string{"--map", good, "--base", "/nonexistent/base.txt"}, wantCode: 1,
			wantErr: "/nonexistent/base.txt", wantNoOut: true},
		{name: "no --map", args: nil, wantCode: 2, wantErr: "--map is required", wantNoOut: true},
		{name: "stray argument", args: []string{"--map", good, "extra"}, wantCode: 2, wantErr: `unexpected argument "extra"`, wantNoOut: true},
		{name: "unknown flag", args: []string{"--mapp", good}, wantCode: 2, wantErr: "unknown flag: --mapp", wantNoOut: true},
		{name: "help", args: []string{"--help"}, wantCode: 0, wantOut: []string{"usage: tracebeat check --map", "Examples:", "--base string"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := runMain(append([]string{"check"}, tc.args...), &out, &errb)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out.String(), errb.String())
			}
			rest := out.String()
			for _, w := range tc.wantOut {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("stdout lacks %q (in order)\nstdout:\n%s", w, out.String())
					break
				}
				rest = rest[i+len(w):]
			}
			if tc.wantErr != "" && !strings.Contains(errb.String(), tc.wantErr) {
				t.Errorf("stderr = %q, want %q", errb.String(), tc.wantErr)
			}
			if tc.wantNoOut && out.Len() != 0 {
				t.Errorf("stdout not empty: %q", out.String())
			}
			if tc.wantLines > 0 && strings.Count(out.String(), "\n") != tc.wantLines {
				t.Errorf("stdout has %d lines, want %d", strings.Count(out.String(), "\n"), tc.wantLines)
			}
			if strings.Contains(errb.String(), "goroutine") || strings.Contains(errb.String(), "panic") {
				t.Errorf("stack trace on stderr: %s", errb.String())
			}
		})
	}
}

func TestCheckCommandJar(t *testing.T) {
	good := writeTemp(t, "good.txt", "1,1,a.A run ()V\n2,1,a.B stop ()V\n"+dispatchLine)
	jar := "app-instrumented.jar"

	tests := []struct {
		name     string
		methods  []methodmap.InstrumentedMethod
		scanErr  error
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{name: "matches", wantCode: 0, wantOut: "jar=" + jar + " violations=0",
			methods: []methodmap.InstrumentedMethod{
				{Class: "a/A", Name: "run", Desc: "()V", Access: 1, InjectedIDs: []int{1, 1}},
				{Class: "a/B", Name: "stop", Desc: "()V", Access: 1, InjectedIDs: []int{2, 2, 2}},
			}},
		{name: "mismatch", wantCode: 1, wantOut: jar + ": method a.A run ()V is instrumented with id 2, which " + good + " gives to a.B stop ()V (line 2)",
			methods: []methodmap.InstrumentedMethod{
				{Class: "a/A", Name: "run", Desc: "()V", Access: 1, InjectedIDs: []int{2}},
				{Class: "a/B", Name: "stop", Desc: "()V", Access: 1, InjectedIDs: []int{2}},
			}},
		{name: "not instrumented", wantCode: 1, wantOut: jar + ": method a.B stop ()V has id 2 in " + good + " (line 2) but is not instrumented",
			methods: []methodmap.InstrumentedMethod{
				{Class: "a/A", Name: "run", Desc: "()V", Access: 1, InjectedIDs: []int{1}},
				{Class: "a/B", Name: "stop", Desc: "()V", Access: 1},
			}},
		{name: "nothing the map names, nothing injected", wantCode: 0, wantOut: "violations=0",
			methods: []methodmap.InstrumentedMethod{{Class: "lib/Blocked", Name: "run", Desc: "()V", Access: 1}}},
		{name: "never instrumented", wantCode: 1, wantErr: "tracebeat check: " + jar + " carries no injected calls of --beat-class com/tencent/matrix/trace/core/AppMethodBeat: is it the jar that instrument wrote",
			methods: []methodmap.InstrumentedMethod{{Class: "a/B", Name: "stop", Desc: "()V", Access: 1}}},
		{name: "scan error", scanErr: errors.New("zip: not a valid zip file"), wantCode: 1,
			wantErr: "tracebeat check: " + jar + ": zip: not a valid zip file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var gotPath string
			withJarScanner(t, func(p string) ([]methodmap.InstrumentedMethod, error) {
				gotPath = p
				return tc.methods, tc.scanErr
			})
			var out, errb bytes.Buffer
			code := runMain([]string{"check", "--map", good, "--jar", jar}, &out, &errb)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.wantCode, out.String(), errb.String())
			}
			if gotPath != jar {
				t.Errorf("scanner got path %q", gotPath)
			}
			if tc.wantOut != "" && !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("stdout = %q\nwant %q", out.String(), tc.wantOut)
			}
			if tc.wantErr != "" && !strings.Contains(errb.String(), tc.wantErr) {
				t.Errorf("stderr = %q, want %q", errb.String(), tc.wantErr)
			}
		})
	}
}
