package gradle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// The line Matrix (and tracebeat) always adds to methodMapping.txt for the
// runtime's main-looper dispatch (REFERENCE.md §1).
const dispatchLine = "1048574,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V"

// beatClass is the runtime class the instrumented code calls, as it appears
// in a class file's constant pool.
const beatClass = "com/tencent/matrix/trace/core/AppMethodBeat"

// env is what every Gradle build of the test shares.
type env struct {
	gradle   string
	userHome string // one Gradle user home for all builds: scripts compile once
	tool     string
	jars     pluginJars
}

func (e env) build(t *testing.T, dir string, args ...string) gradleRun {
	t.Helper()
	return runGradle(t, e.gradle, e.userHome, dir, args...)
}

// TestGradlePlugin builds the plugin, then runs the real Gradle on the two
// sample projects: a plain Java app (instrumented, run, rebuilt from the
// build cache in another checkout, and failed on purpose) and an Android app
// built by the AGP stand-in (per-variant wiring through ScopedArtifacts).
func TestGradlePlugin(t *testing.T) {
	gradle := requireGradle(t)
	e := env{
		gradle:   gradle,
		userHome: t.TempDir(),
		tool:     buildTool(t, t.TempDir()),
		jars:     buildPluginJars(t, gradle),
	}
	t.Run("java", func(t *testing.T) {
		t.Parallel()
		testJavaProject(t, e)
	})
	t.Run("android-standin", func(t *testing.T) {
		t.Parallel()
		testAndroidStandin(t, e)
	})
	t.Run("variant-blocks", func(t *testing.T) {
		t.Parallel()
		testVariantBlocks(t, e)
	})
	t.Run("android-runtime", func(t *testing.T) {
		t.Parallel()
		testAndroidRuntime(t, e)
	})
}

// testVariantBlocks: variants { debug { ... } release { ... } } set each
// variant's mode, rules and block list, the map form still works beside
// them, and what a block leaves unset comes from the tracebeat block.
func testVariantBlocks(t *testing.T, e env) {
	app := filepath.Join(t.TempDir(), "app")
	copyTree(t, filepath.Join(javatest.RepoRoot(t), "testdata", "gradle", "android-standin", "app"), app)
	build := readFile(t, filepath.Join(app, "build.gradle"))
	i := strings.Index(build, "tracebeat {")
	require.Positive(t, i)
	build = build[:i] + `tracebeat {
    toolPath = findProperty('tracebeatTool')
    blackListFile = 'all-blacklist.txt'      // debug keeps it
    report = false                           // no JSON report
    strict = true                            // warnings fail the build
    variants = [staging: true]               // the map form, beside the blocks
    variants {
        debug {
            mode = 'systrace'
        }
        release {
            blackListFile = 'release-blacklist.txt'
            traceAll = true
        }
    }
}
`
	require.NoError(t, os.WriteFile(filepath.Join(app, "build.gradle"), []byte(build), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(app, "all-blacklist.txt"), []byte("-keeppackage standin/lib/\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(app, "release-blacklist.txt"), []byte("-keepclass standin/app/Main\n"), 0o644))
	classpath := strings.Join([]string{e.jars.plugin, e.jars.agpAPI, e.jars.fakeAGP}, string(os.PathListSeparator))
	run := e.build(t, app, "-PtracebeatPluginClasspath="+classpath, "-PtracebeatTool="+e.tool, "assemble")
	require.NoError(t, run.err, "stand-in build:\n%s", run.output)
	require.Equal(t, "", run.outcomes[":tracebeatInstrumentDebug"], run.output)
	require.Equal(t, "", run.outcomes[":tracebeatInstrumentRelease"], run.output)
	require.Contains(t, run.output, "names unknown variant(s) [staging]")

	outputs := filepath.Join(app, "build", "outputs")
	debugMap := readFile(t, filepath.Join(outputs, "tracebeat", "debug", "methodMapping.txt"))
	releaseMap := readFile(t, filepath.Join(outputs, "tracebeat", "release", "methodMapping.txt"))
	// debug: the tracebeat block's list blocks standin/lib; systrace mode.
	assert.NotContains(t, debugMap, "standin.lib.")
	assert.Contains(t, debugMap, "standin.app.Main ")
	debugJar := filepath.Join(outputs, "standin", "debug", "classes.jar")
	assert.NotEmpty(t, jarClassesMentioning(t, debugJar, "android/os/Trace"), "debug is in systrace mode")
	assert.Empty(t, jarClassesMentioning(t, debugJar, beatClass))
	// release: its own list (standin/lib traced, Main blocked), beat mode, trace-all.
	assert.Contains(t, releaseMap, "standin.lib.TextUtil join ")
	assert.NotContains(t, releaseMap, "standin.app.Main ")
	// trace-all traces the trivial constructor Matrix's getter/setter rule skips.
	assert.Contains(t, releaseMap, "standin.lib.TextUtil <init> ()V")
	releaseJar := filepath.Join(outputs, "standin", "release", "classes.jar")
	assert.NotEmpty(t, jarClassesMentioning(t, releaseJar, beatClass), "release is in beat mode")
	conf := readFile(t, filepath.Join(app, "build", "tmp", "tracebeatInstrumentRelease", "instrument.conf"))
	assert.Contains(t, conf, "release-blacklist.txt")
	assert.Contains(t, conf, "strict = true")
	assert.NotContains(t, conf, "report = ")
	assert.NoFileExists(t, filepath.Join(outputs, "tracebeat", "release", "tracebeat-report.json"))
}

func testJavaProject(t *testing.T, e env) {
	sample := filepath.Join(javatest.RepoRoot(t), "testdata", "gradle", "sample")
	cache := t.TempDir()
	args := func(extra ...string) []string {
		return append([]string{
			"-PtracebeatPluginClasspath=" + e.jars.plugin,
			"-PtracebeatTool=" + e.tool,
		}, extra...)
	}
	cached := args("--build-cache", "-PtracebeatBuildCacheDir="+cache, "assemble")

	first := filepath.Join(t.TempDir(), "sample")
	copyTree(t, sample, first)
	run := e.build(t, first, cached...)
	require.NoError(t, run.err, "first build:\n%s", run.output)
	require.Contains(t, run.outcomes, ":tracebeatJar", "assemble must run the instrument task:\n%s", run.output)
	require.Equal(t, "", run.outcomes[":tracebeatJar"], "first build must execute the instrument task:\n%s", run.output)
	assert.Regexp(t, `(?m)^tracebeat: inputs=1 `, run.output, "the tool's summary line is shown")

	plainJar := filepath.Join(first, "build", "libs", "tracebeat-sample.jar")
	tracedJar := filepath.Join(first, "build", "libs", "tracebeat-sample-traced.jar")
	maps := filepath.Join(first, "build", "outputs", "tracebeat")

	t.Run("maps", func(t *testing.T) {
		t.Parallel()
		lines := methodMapLines(t, filepath.Join(maps, "methodMapping.txt"))
		assert.Contains(t, lines, dispatchLine)
		// The base map's id is kept: the option reached the tool.
		assert.Contains(t, lines, "500,9,demo.App main ([Ljava.lang.String;)V")
		for _, method := range []string{
			`demo\.Parser parse \(Ljava\.lang\.String;\)Ldemo\.Parser\$Entry;`,
			`demo\.Parser parseQuantity \(Ljava\.lang\.String;\)I`,
			`demo\.Inventory addLine \(Ldemo\.Parser;Ljava\.lang\.String;\)V`,
			`demo\.Worker run \(\)V`,
			`demo\.Worker strict \(Ljava\.lang\.String;\)V`,
		} {
			assert.True(t, anyMatch(lines, `^\d+,\d+,`+method+`$`), "methodMapping.txt lacks %s", method)
		}
		for _, absent := range []string{"demo.Blocked ", "demo.Inventory getRejected "} {
			for _, l := range lines {
				assert.NotContains(t, l, absent, "blacklisted class / getter must not be traced")
			}
		}
		ignore := readFile(t, filepath.Join(maps, "ignoreMethodMapping.txt"))
		assert.True(t, strings.HasPrefix(ignore, "ignore methods:\n"), "ignoreMethodMapping.txt starts with %q", firstLine(ignore))
		var report map[string]any
		assert.NoError(t, json.Unmarshal([]byte(readFile(t, filepath.Join(maps, "tracebeat-report.json"))), &report))
	})

	t.Run("run", func(t *testing.T) {
		t.Parallel()
		javatest.RequireVerified(t, tracedJar, javatest.BeatStub(t))
		plainOut, plainErr, err := javatest.BeatStubJVM(t, plainJar).Run(t, "demo.App")
		require.NoError(t, err, plainErr)
		before, err := javatest.ParseStubReport(plainErr)
		require.NoError(t, err)
		assert.Zero(t, before.Enter, "the uninstrumented jar calls no AppMethodBeat")

		tracedOut, tracedErr, err := javatest.BeatStubJVM(t, tracedJar).Run(t, "demo.App")
		require.NoError(t, err, tracedErr)
		assert.Equal(t, plainOut, tracedOut, "instrumentation must not change what the program does")
		after, err := javatest.ParseStubReport(tracedErr)
		require.NoError(t, err)
		assert.Positive(t, after.Enter, "the traced jar calls AppMethodBeat.i")
		assert.True(t, after.Balanced(), "every i() closed by its own o(), also on the exception paths: %+v", after)
		assert.GreaterOrEqual(t, after.Threads, 2, "main and the worker thread are traced: %+v", after)
	})

	// Two more builds, independent of each other and of the checks above:
	// an unchanged checkout in another directory must take the instrument
	// result from the build cache, and a tool failure must fail the build
	// with the tool's stderr.
	t.Run("build-cache-across-checkouts", func(t *testing.T) {
		t.Parallel()
		secondDir := filepath.Join(t.TempDir(), "elsewhere", "sample")
		copyTree(t, sample, secondDir)
		second := e.build(t, secondDir, cached...)
		require.NoError(t, second.err, "second build:\n%s", second.output)
		assert.Equal(t, "FROM-CACHE", second.outcomes[":tracebeatJar"],
			"an unchanged project in another directory must reuse the cached result:\n%s", second.output)
		for _, rel := range []string{
			"build/libs/tracebeat-sample-traced.jar",
			"build/outputs/tracebeat/methodMapping.txt",
			"build/outputs/tracebeat/ignoreMethodMapping.txt",
			"build/outputs/tracebeat/tracebeat-report.json",
		} {
			assert.Equal(t, readFile(t, filepath.Join(first, rel)), readFile(t, filepath.Join(secondDir, rel)),
				"%s restored from the cache differs", rel)
		}
	})

	// The task passes --cache under build/ by default: after an edit of
	// one source file the tool reuses what it made for the other classes.
	t.Run("edit-rebuild-uses-the-cache", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "sample")
		copyTree(t, sample, dir)
		first := e.build(t, dir, args("assemble")...)
		require.NoError(t, first.err, first.output)
		assert.DirExists(t, filepath.Join(dir, "build", "tracebeat-cache", "tracebeatJar"))
		worker := filepath.Join(dir, "src", "main", "java", "demo", "Worker.java")
		src := readFile(t, worker)
		require.Contains(t, src, `"rejected=0"`)
		require.NoError(t, os.WriteFile(worker, []byte(strings.Replace(src, `"rejected=0"`, `"rejected=1"`, 1)), 0o644))
		second := e.build(t, dir, args("assemble")...)
		require.NoError(t, second.err, second.output)
		assert.Equal(t, "", second.outcomes[":tracebeatJar"], "the edit re-runs the task:\n%s", second.output)
		stdout := readFile(t, filepath.Join(dir, "build", "tmp", "tracebeatJar", "stdout.txt"))
		assert.Regexp(t, `cache:\s+\d+ inputs? reused whole, [1-9]\d* class scans`, stdout, "the second run reused the unchanged classes")
	})

	// A build that fails after a good one loses nothing: the tool leaves
	// the outputs of the last good run as they were.
	t.Run("failed-build-keeps-the-last-outputs", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "sample")
		copyTree(t, sample, dir)
		good := e.build(t, dir, args("assemble")...)
		require.NoError(t, good.err, good.output)
		traced := filepath.Join(dir, "build", "libs", "tracebeat-sample-traced.jar")
		mapFile := filepath.Join(dir, "build", "outputs", "tracebeat", "methodMapping.txt")
		before, beforeMap := readFile(t, traced), readFile(t, mapFile)
		worker := filepath.Join(dir, "src", "main", "java", "demo", "Worker.java")
		w := readFile(t, worker)
		require.NoError(t, os.WriteFile(worker, []byte(strings.Replace(w, `"rejected=0"`, `"rejected=2"`, 1)), 0o644))
		failed := e.build(t, dir, args("-PtracebeatExtraArgs=--no-such-flag", "assemble")...)
		require.Error(t, failed.err, failed.output)
		assert.Equal(t, before, readFile(t, traced), "the traced jar of the last good build is kept")
		assert.Equal(t, beforeMap, readFile(t, mapFile), "its map too")
	})

	// matrixOutputPaths: the maps where Matrix wrote them.
	t.Run("matrix-output-paths", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "sample")
		copyTree(t, sample, dir)
		script := filepath.Join(dir, "build.gradle")
		src := readFile(t, script)
		require.NoError(t, os.WriteFile(script, []byte(strings.Replace(src, "    enable = true\n", "    enable = true\n    matrixOutputPaths = true\n", 1)), 0o644))
		run := e.build(t, dir, args("assemble")...)
		require.NoError(t, run.err, run.output)
		for _, f := range []string{"methodMapping.txt", "ignoreMethodMapping.txt"} {
			assert.FileExists(t, filepath.Join(dir, "build", "outputs", "mapping", f))
			assert.NoFileExists(t, filepath.Join(dir, "build", "outputs", "tracebeat", f))
		}
	})

	// Before the first release the base map does not exist: the build
	// works, with the tool's warning (Matrix reads it as empty).
	t.Run("first-build-without-base-map", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "sample")
		copyTree(t, sample, dir)
		require.NoError(t, os.Remove(filepath.Join(dir, "tracebeat-base-map.txt")))
		run := e.build(t, dir, args("assemble")...)
		require.NoError(t, run.err, "a missing base map must not fail the build:\n%s", run.output)
		assert.Equal(t, "", run.outcomes[":tracebeatJar"], run.output)
		stderr := readFile(t, filepath.Join(dir, "build", "tmp", "tracebeatJar", "stderr.txt"))
		assert.Contains(t, stderr, "no base map at "+filepath.Join(dir, "tracebeat-base-map.txt")+" yet: ids continue the cache's last map, or start at 1")
		lines := methodMapLines(t, filepath.Join(dir, "build", "outputs", "tracebeat", "methodMapping.txt"))
		assert.True(t, strings.HasPrefix(lines[0], "1,"), "ids start at 1: %s", lines[0])
	})

	t.Run("variants-are-reported", func(t *testing.T) {
		// Android's variants switch, pasted into a Java project's block,
		// is said to do nothing there; the jar is instrumented as before.
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "sample")
		copyTree(t, sample, dir)
		build := filepath.Join(dir, "build.gradle")
		require.NoError(t, os.WriteFile(build, []byte(readFile(t, build)+"\ntracebeat { variants = [release: true, debug: false] }\n"), 0o644))
		run := e.build(t, dir, args("assemble")...)
		require.NoError(t, run.err, run.output)
		assert.Contains(t, run.output, "tracebeat: tracebeat.variants of root project 'tracebeat-sample' names [debug, release], but a plain Java project has no variants: the setting is ignored")
		assert.Equal(t, "", run.outcomes[":tracebeatJar"], run.output)
	})

	t.Run("tool-failure-fails-build", func(t *testing.T) {
		t.Parallel()
		failedDir := filepath.Join(t.TempDir(), "sample")
		copyTree(t, sample, failedDir)
		failed := e.build(t, failedDir, args("-PtracebeatExtraArgs=--no-such-flag", "assemble")...)
		require.Error(t, failed.err, "a failing tool must fail the build:\n%s", failed.output)
		assert.Equal(t, "FAILED", failed.outcomes[":tracebeatJar"], failed.output)
		assert.Contains(t, failed.output, "tracebeat instrument failed (exit 2) in :tracebeatJar")
		stderr := strings.TrimSpace(readFile(t, filepath.Join(failedDir, "build", "tmp", "tracebeatJar", "stderr.txt")))
		require.NotEmpty(t, stderr, "the tool explains a usage error on stderr")
		for _, line := range strings.Split(stderr, "\n") {
			assert.Contains(t, failed.output, line, "the build failure quotes the tool's stderr")
		}
		_, err := os.Stat(filepath.Join(failedDir, "build", "libs", "tracebeat-sample-traced.jar"))
		assert.True(t, os.IsNotExist(err), "a failed run leaves no traced jar: %v", err)
	})
}

func testAndroidStandin(t *testing.T, e env) {
	app := filepath.Join(t.TempDir(), "app")
	copyTree(t, filepath.Join(javatest.RepoRoot(t), "testdata", "gradle", "android-standin", "app"), app)
	classpath := strings.Join([]string{e.jars.plugin, e.jars.agpAPI, e.jars.fakeAGP}, string(os.PathListSeparator))
	run := e.build(t, app, "-PtracebeatPluginClasspath="+classpath, "-PtracebeatTool="+e.tool, "assemble")
	require.NoError(t, run.err, "stand-in build:\n%s", run.output)

	assert.Equal(t, "", run.outcomes[":tracebeatInstrumentDebug"], "debug is instrumented:\n%s", run.output)
	assert.NotContains(t, run.outcomes, ":tracebeatInstrumentRelease", "release is disabled:\n%s", run.output)
	assert.Contains(t, run.output, "names unknown variant(s) [staging]", "a misspelt variant is reported")
	assert.NotContains(t, run.outcomes, ":tracebeatRuntime", "Matrix's runtime is the default: tracebeat's is not added")

	outputs := filepath.Join(app, "build", "outputs")
	androidJar := filepath.Join(app, "build", "standin", "android.jar")
	debugJar := filepath.Join(outputs, "standin", "debug", "classes.jar")
	releaseJar := filepath.Join(outputs, "standin", "release", "classes.jar")

	t.Run("maps", func(t *testing.T) {
		lines := methodMapLines(t, filepath.Join(outputs, "tracebeat", "debug", "methodMapping.txt"))
		assert.Contains(t, lines, dispatchLine)
		for _, method := range []string{
			`standin\.app\.MainActivity onCreate \(\)V`,                                                  // from the class directory
			`standin\.lib\.TextUtil join \(Ljava\.util\.List;Ljava\.lang\.String;\)Ljava\.lang\.String;`, // from the jar
		} {
			assert.True(t, anyMatch(lines, `^\d+,\d+,`+method+`$`), "methodMapping.txt lacks %s", method)
		}
		ignore := readFile(t, filepath.Join(outputs, "tracebeat", "debug", "ignoreMethodMapping.txt"))
		assert.True(t, strings.HasPrefix(ignore, "ignore methods:\n"), "ignoreMethodMapping.txt starts with %q", firstLine(ignore))
		_, err := os.Stat(filepath.Join(outputs, "tracebeat", "release"))
		assert.True(t, os.IsNotExist(err), "no maps for the disabled variant: %v", err)
	})

	t.Run("packaged-classes", func(t *testing.T) {
		// The transform's output jar is what the stand-in packages for debug.
		assert.NotEmpty(t, jarClassesMentioning(t, debugJar, beatClass), "debug classes call the runtime")
		assert.Empty(t, jarClassesMentioning(t, releaseJar, beatClass), "release classes are untouched")

		javatest.RequireVerified(t, debugJar, javatest.BeatStub(t), androidJar)
		debugOut, debugErr, err := javatest.BeatStubJVM(t, debugJar, androidJar).Run(t, "standin.app.Main")
		require.NoError(t, err, debugErr)
		traced, err := javatest.ParseStubReport(debugErr)
		require.NoError(t, err)
		assert.Positive(t, traced.Enter)
		assert.True(t, traced.Balanced(), "%+v", traced)
		// MainActivity extends the add-on MapActivity: only the boot classpath
		// the plugin passes (--classpath android.jar) shows it is an Activity.
		assert.Equal(t, map[string]int{"standin.app.MainActivity": 1}, traced.FocusByClass,
			"the inserted onWindowFocusChanged reports focus once")

		releaseOut, releaseErr, err := javatest.BeatStubJVM(t, releaseJar, androidJar).Run(t, "standin.app.Main")
		require.NoError(t, err, releaseErr)
		plain, err := javatest.ParseStubReport(releaseErr)
		require.NoError(t, err)
		assert.Zero(t, plain.Enter+plain.Focus, "release runs without tracing: %+v", plain)
		assert.Equal(t, releaseOut, debugOut, "instrumentation must not change what the program does")
	})
}

// methodMapLines reads a methodMapping.txt, checks every line's form
// ("id,access,class method [descriptor]") and the ascending id order, and
// returns the lines.
func methodMapLines(t *testing.T, path string) []string {
	t.Helper()
	text := readFile(t, path)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	form := regexp.MustCompile(`^(\d+),(\d+),\S+ \S+( \S+)?$`)
	last := 0
	for i, l := range lines {
		m := form.FindStringSubmatch(l)
		if !assert.NotNil(t, m, "%s:%d: malformed line %q", path, i+1, l) {
			continue
		}
		id, _ := strconv.Atoi(m[1])
		assert.Greater(t, id, last, "%s:%d: ids must ascend", path, i+1)
		last = id
	}
	return lines
}

func anyMatch(lines []string, pattern string) bool {
	re := regexp.MustCompile(pattern)
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func TestTaskOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name, output string
		want         map[string]string
	}{
		{"gradle4", ":compileJava FROM-CACHE\n:classes UP-TO-DATE\n:jar\n:tracebeatJar FROM-CACHE\n",
			map[string]string{":compileJava": "FROM-CACHE", ":classes": "UP-TO-DATE", ":jar": "", ":tracebeatJar": "FROM-CACHE"}},
		{"gradle8", "> Task :compileJava\n> Task :app:tracebeatInstrumentDebug FROM-CACHE\n> Task :processResources NO-SOURCE\n",
			map[string]string{":compileJava": "", ":app:tracebeatInstrumentDebug": "FROM-CACHE", ":processResources": "NO-SOURCE"}},
		{"failed", ":tracebeatJar FAILED\r\n", map[string]string{":tracebeatJar": "FAILED"}},
		{"not-tasks", "tracebeat: inputs=1 classes=6\n  :notATask\nBUILD SUCCESSFUL in 3s\n> Task :x NOT-AN-OUTCOME\n",
			map[string]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, taskOutcomes(tc.output))
		})
	}
}
