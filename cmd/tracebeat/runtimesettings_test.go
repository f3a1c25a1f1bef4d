package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// TestRuntimeCarriesSettings: what `tracebeat runtime --set` puts in the
// jar is what the recorder does with no -D at all (how an Android app is
// told), and a system property still wins over it.
func TestRuntimeCarriesSettings(t *testing.T) {
	classes := threadsProgram(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	methodMap := filepath.Join(dir, "methodMapping.txt")
	code, _, stderr := runCLI("instrument", "-o", out, "--method-map", methodMap, classes)
	require.Equal(t, exitOK, code, stderr)
	trace := filepath.Join(dir, "carried.trace")
	jar := filepath.Join(dir, "tracebeat-runtime.jar")
	code, _, stderr = runCLI("runtime", "-o", jar, "--set", "mode=stream", "--set", "tracebeat.trace="+trace, "--set", "flush=50ms")
	require.Equal(t, exitOK, code, stderr)

	kind := func(props ...string) int {
		t.Helper()
		require.NoError(t, os.RemoveAll(trace))
		args := append(props, "-cp", jar+string(os.PathListSeparator)+filepath.Join(out, "threads"), "fixture.Threads", "3", "200")
		msg, err := exec.Command("java", args...).CombinedOutput()
		require.NoError(t, err, "%s", msg)
		f, err := os.Open(trace)
		require.NoError(t, err, "the jar's trace setting names the recording; java said %s", msg)
		defer f.Close()
		rec, err := recording.Read(bufio.NewReader(f), trace)
		require.NoError(t, err)
		require.GreaterOrEqual(t, rec.Threads, 4, "main and the three workers recorded")
		return rec.Kind
	}
	require.Equal(t, recording.KindStream, kind(), "the jar says mode=stream")
	require.Equal(t, recording.KindExit, kind("-Dtracebeat.mode=ring"), "a system property wins over the jar")
}

// TestRuntimeSettingsErrors: a setting the recorder would not read is
// refused when the jar is written, naming it, and no jar is left.
func TestRuntimeSettingsErrors(t *testing.T) {
	for _, tc := range []struct{ set, want string }{
		{"nope=1", `no setting "nope"`},
		{"slow=fast", `slow: "fast" is not a duration`},
		{"budget=16q", `budget: "16q" is not a size`},
		{"mode=file", `mode: "file" is not ring or stream`},
		{"slow", `want KEY=VALUE`},
		{"anr=", `no value`},
	} {
		t.Run(tc.set, func(t *testing.T) {
			jar := filepath.Join(t.TempDir(), "rt.jar")
			code, _, stderr := runCLI("runtime", "-o", jar, "--android", "--set", tc.set)
			require.Equal(t, exitUsage, code)
			require.Contains(t, stderr, tc.want)
			require.NoFileExists(t, jar)
		})
	}
}

// TestRuntimeCarriedSettingsReadBack: the jar's settings file, read by
// java.util.Properties in the JVM, gives back every value as written,
// the characters the format gives a meaning to and non-ASCII among them.
func TestRuntimeCarriedSettingsReadBack(t *testing.T) {
	javatest.RequireJava(t)
	values := map[string]string{
		"slow.threads":  `^(main|bg-\d+)=:#! x`,
		"stall.methods": "café 😀 \t tab",
		"dump.dir":      ` C:\dumps\ünï`,
	}
	var set []string
	for k, v := range values {
		set = append(set, "--set", k+"="+v)
	}
	dir := t.TempDir()
	jar := filepath.Join(dir, "rt.jar")
	code, _, stderr := runCLI(append([]string{"runtime", "-o", jar}, set...)...)
	require.Equal(t, exitOK, code, stderr)
	src := filepath.Join(dir, "src")
	require.NoError(t, os.MkdirAll(src, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "ReadBack.java"), []byte(`
public class ReadBack {
    public static void main(String[] args) throws Exception {
        java.util.Properties p = new java.util.Properties();
        p.load(ReadBack.class.getResourceAsStream("/com/github/tracebeat/runtime/settings.properties"));
        java.io.PrintStream out = new java.io.PrintStream(System.out, true, "UTF-8");
        for (String k : new java.util.TreeSet<String>(p.stringPropertyNames())) {
            out.print(k + "\u0000" + p.getProperty(k) + "\u0000");
        }
    }
}
`), 0o644))
	compileJava(t, filepath.Join(dir, "classes"), src)
	msg, err := exec.Command("java", "-cp", jar+string(os.PathListSeparator)+filepath.Join(dir, "classes"), "ReadBack").Output()
	require.NoError(t, err)
	got := map[string]string{}
	f := strings.Split(strings.TrimSuffix(string(msg), "\x00"), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		got[f[i]] = f[i+1]
	}
	want := map[string]string{}
	for k, v := range values {
		want["tracebeat."+k] = strings.TrimSpace(v)
	}
	require.Equal(t, want, got)
}
