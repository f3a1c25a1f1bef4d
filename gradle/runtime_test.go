package gradle

import (
	"archive/zip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/jvmruntime"
)

// testAndroidRuntime: the stand-in app with tracebeat { runtime =
// 'tracebeat' }: the plugin writes the binary's runtime for Android and
// adds it to the app's implementation dependencies, so every variant
// packages it; it is not instrumented (its classes are the binary's
// bytes), holds no android.os.Trace (the framework's) and carries the
// build's runtimeSettings, and the debug app
// records with it: a run writes a recording that decode names with the
// variant's map, and prints what the uninstrumented release prints.
func testAndroidRuntime(t *testing.T, e env) {
	app := filepath.Join(t.TempDir(), "app")
	copyTree(t, filepath.Join(javatest.RepoRoot(t), "testdata", "gradle", "android-standin", "app"), app)
	classpath := strings.Join([]string{e.jars.plugin, e.jars.agpAPI, e.jars.fakeAGP}, string(os.PathListSeparator))
	run := e.build(t, app, "-PtracebeatPluginClasspath="+classpath, "-PtracebeatTool="+e.tool, "-PstandinRuntime=tracebeat", "assemble")
	require.NoError(t, run.err, "stand-in build with runtime = 'tracebeat':\n%s", run.output)
	assert.Equal(t, "", run.outcomes[":tracebeatRuntime"], "the runtime is written:\n%s", run.output)

	embedded, err := jvmruntime.Classes(jvmruntime.Jar())
	require.NoError(t, err)
	outputs := filepath.Join(app, "build", "outputs")
	for _, variant := range []string{"debug", "release"} {
		entries := jarEntries(t, filepath.Join(outputs, "standin", variant, "classes.jar"))
		assert.NotContains(t, entries, jvmruntime.TraceClass+".class", "%s: android.os.Trace is the framework's", variant)
		for name, data := range embedded {
			if name == jvmruntime.TraceClass+".class" {
				continue
			}
			assert.Equal(t, data, entries[name], "%s: %s is the binary's runtime, untouched", variant, name)
		}
		// runtimeSettings, as the jar carries them for the runtime to read.
		assert.Contains(t, string(entries[jvmruntime.SettingsEntry]), "tracebeat.slow=500ms\ntracebeat.stall.threads=main|worker-\\\\d+\n", "%s: the build's runtimeSettings", variant)
	}

	debugJar := filepath.Join(outputs, "standin", "debug", "classes.jar")
	androidJar := filepath.Join(app, "build", "standin", "android.jar")
	cp := debugJar + string(os.PathListSeparator) + androidJar
	trace := filepath.Join(t.TempDir(), "app.trace")
	debugOut, err := exec.Command("java", "-Dtracebeat.trace="+trace, "-cp", cp, "standin.app.Main").Output()
	require.NoError(t, err)
	releaseOut, err := exec.Command("java", "-cp", filepath.Join(outputs, "standin", "release", "classes.jar")+string(os.PathListSeparator)+androidJar, "standin.app.Main").Output()
	require.NoError(t, err)
	assert.Equal(t, string(releaseOut), string(debugOut), "the runtime must not change what the app does")
	decoded, err := exec.Command(e.tool, "decode", "--map", filepath.Join(outputs, "tracebeat", "debug", "methodMapping.txt"), trace).CombinedOutput()
	require.NoError(t, err, "%s", decoded)
	assert.Contains(t, string(decoded), "standin.app.MainActivity.onCreate()V", "the recording names the app's calls")
	assert.NotContains(t, string(decoded), "not in the map")
}

// jarEntries reads a jar's files by name.
func jarEntries(t *testing.T, jar string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(jar)
	require.NoError(t, err)
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		rc.Close()
		require.NoError(t, err)
		out[f.Name] = data
	}
	return out
}
