package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/methodmap"
)

// Shared pieces of the integration tests: the demo app of testdata/demo
// (also what scripts/demo.sh runs) and the tool run in-process.

// integDemo is the compiled demo app and its Android stand-in library.
type integDemo struct {
	classes string // class directory of the app (shared: read-only)
	jar     string // the app jar
	stubJar string // android.app.Activity / android.os.Bundle stand-ins
}

// integBuildDemo compiles testdata/demo for Java 8 (ProGuard 6.2.2 reads class
// files up to Java 13): the stub separately, the app against it.
func integBuildDemo(t *testing.T) integDemo {
	t.Helper()
	javatest.RequireJava(t)
	stub := javatest.Javac(t, javatest.Options{Release: 8}, javatest.Testdata(t, "demo", "android-stub"))
	classes := javatest.Javac(t, javatest.Options{Release: 8, Debug: true, Classpath: []string{stub}},
		javatest.Testdata(t, "demo", "src"))
	return integDemo{classes: classes, jar: javatest.Jar(t, classes), stubJar: javatest.Jar(t, stub)}
}

// integCopy copies a file into dir under name, so that inputs get the names
// the test wants (output mirrors are named after their input).
func integCopy(t *testing.T, src, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	dst := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(dst, data, 0o644))
	return dst
}

// integRun is the outcome of one in-process run of the tool.
type integRun struct {
	code           int
	stdout, stderr string
}

func integTool(args ...string) integRun {
	var out, errb bytes.Buffer
	code := runMain(args, &out, &errb)
	return integRun{code, out.String(), errb.String()}
}

// integMustRun runs the tool and fails the test unless it exits 0.
func integMustRun(t *testing.T, args ...string) integRun {
	t.Helper()
	r := integTool(args...)
	require.Equal(t, exitOK, r.code, "tracebeat %q\nstdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
	return r
}

var integSummaryRe = regexp.MustCompile(`\b(classes|rewritten|traced|ignored|skipped|focus)=(\d+)`)

// integSummaryCounts reads the counts of instrument's summary line.
func integSummaryCounts(t *testing.T, stdout string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, m := range integSummaryRe.FindAllStringSubmatch(stdout, -1) {
		n, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		got[m[1]] = n
	}
	require.Contains(t, got, "traced", "no summary line in %q", stdout)
	return got
}

// integReadMap reads a written methodMapping.txt and its bytes.
func integReadMap(t *testing.T, path string) (*methodmap.Map, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := methodmap.ParseMap(bytes.NewReader(data), path)
	require.NoError(t, err)
	return m, data
}

// integIDs returns the id of every traced method of a map (the dispatch
// entry left out).
func integIDs(m *methodmap.Map) map[methodmap.MethodKey]int {
	ids := map[methodmap.MethodKey]int{}
	for _, e := range m.Entries {
		if e.ID != methodmap.DispatchID {
			ids[e.Key] = e.ID
		}
	}
	return ids
}
