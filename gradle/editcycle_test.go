package gradle

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// profileRow matches a task's row in Gradle's --profile report:
// <td>:tracebeatJar</td><td class="numeric">1.234s</td>.
func profileRow(task string) *regexp.Regexp {
	return regexp.MustCompile(`<td[^>]*>` + regexp.QuoteMeta(task) + `</td>\s*<td class="numeric">([0-9.]+)s</td>`)
}

// editCycle is one project the bench builds, edits and builds again.
type editCycle struct {
	dir    string
	args   []string // Gradle's arguments
	task   string   // the instrument task, as ":name"
	edited string   // the source file the edit changes
}

// TestEditBuildCycle measures the edit-build cycle (bench/gradle-edit.sh
// runs it; the default suite skips it): a project grown by a real library
// (groovy-all's 4,472 classes, a second input), built with a real Gradle,
// then one source file edited and built again. It reports the instrument
// task's time in both builds (Gradle's --profile) and the tool's own time
// (its summary), and fails when the second build's task takes more than
// 20% of the first's, or, in the Android shape, the tool more than 10%.
//
// Two shapes: the Java sample (the app's jar and the library, mirrored by
// the tracebeatJar task) and, with TRACEBEAT_BENCH_ANDROID=1, an Android
// one: the AGP stand-in's app holding the sample's sources and settings
// (block list, base map, report), whose transform gets two class
// directories (src/main/java and src/second/java, as AGP hands javac's and
// Kotlin's classes) and the jars lib.jar and groovy-all, merged into one.
func TestEditBuildCycle(t *testing.T) {
	if os.Getenv("TRACEBEAT_BENCH_GRADLE") == "" {
		t.Skip("run by bench/gradle-edit.sh")
	}
	const library = "/usr/share/java/groovy-all.jar"
	if _, err := os.Stat(library); err != nil {
		t.Fatalf("%s missing: apt-get install groovy", library)
	}
	gradle := requireGradle(t)
	e := env{gradle: gradle, userHome: t.TempDir(), tool: buildTool(t, t.TempDir()), jars: buildPluginJars(t, gradle)}
	android := os.Getenv("TRACEBEAT_BENCH_ANDROID") != ""
	var c editCycle
	if android {
		c = androidEditCycle(t, e, library)
	} else {
		c = jarEditCycle(t, e, library)
	}
	shape := "jar"
	if android {
		shape = "android"
	}

	measure := func(label string) (task, tool float64) {
		run := e.build(t, c.dir, c.args...)
		require.NoError(t, run.err, run.output)
		require.Equal(t, "", run.outcomes[c.task], "%s: the task runs:\n%s", label, run.output)
		reports, err := filepath.Glob(filepath.Join(c.dir, "build", "reports", "profile", "*.html"))
		require.NoError(t, err)
		require.NotEmpty(t, reports)
		newest := reports[0]
		for _, r := range reports {
			if a, b := fileTime(t, r), fileTime(t, newest); a > b {
				newest = r
			}
		}
		m := profileRow(c.task).FindStringSubmatch(readFile(t, newest))
		if m == nil {
			html := readFile(t, newest)
			i := strings.Index(html, c.task)
			t.Fatalf("no %s row in %s: %q", c.task, newest, html[max(0, i-200):min(len(html), i+300)])
		}
		task, err = strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		stdout := readFile(t, filepath.Join(c.dir, "build", "tmp", strings.TrimPrefix(c.task, ":"), "stdout.txt"))
		s := regexp.MustCompile(`seconds=([0-9.]+)`).FindStringSubmatch(stdout)
		require.NotNil(t, s, stdout)
		tool, _ = strconv.ParseFloat(s[1], 64)
		summary := strings.SplitN(stdout, "\n", 2)[0]
		fmt.Printf("gradle-edit: %s: %s: task_s=%.3f tool_s=%.3f %s\n", shape, label, task, tool, summary)
		for _, l := range strings.Split(stdout, "\n") {
			if strings.Contains(l, "cache:") {
				fmt.Printf("gradle-edit: %s: %s: %s\n", shape, label, strings.TrimSpace(l))
			}
		}
		if os.Getenv("TRACEBEAT_BENCH_DEBUG") != "" { // the tool's phases and cache decisions
			stderr := readFile(t, filepath.Join(c.dir, "build", "tmp", strings.TrimPrefix(c.task, ":"), "stderr.txt"))
			for _, l := range strings.Split(stderr, "\n") {
				if strings.Contains(l, "phase done") || strings.Contains(l, "cache:") {
					fmt.Printf("gradle-edit: %s: %s: %s\n", shape, label, strings.TrimSpace(l))
				}
			}
		}
		return task, tool
	}
	firstTask, firstTool := measure("first build")
	w := readFile(t, c.edited)
	edited := strings.Replace(w, `"rejected=0"`, `"rejected=1"`, 1)
	require.NotEqual(t, w, edited, "the edit changes %s", c.edited)
	require.NoError(t, os.WriteFile(c.edited, []byte(edited), 0o644))
	secondTask, secondTool := measure("after one edit")
	if keep := os.Getenv("TRACEBEAT_BENCH_KEEP"); keep != "" { // the project as built, to run the tool by hand
		require.NoError(t, os.CopyFS(keep, os.DirFS(c.dir)))
	}
	taskRatio, toolRatio := secondTask/firstTask, secondTool/firstTool
	bound := "task <= 0.20"
	if android {
		bound += ", tool <= 0.10"
	}
	fmt.Printf("gradle-edit: %s: second/first task_ratio=%.2f tool_ratio=%.2f (bound: %s)\n", shape, taskRatio, toolRatio, bound)
	require.LessOrEqual(t, taskRatio, 0.20)
	if android {
		require.LessOrEqual(t, toolRatio, 0.10)
	}
}

// jarEditCycle is the Java sample with groovy-all as a second input of
// tracebeatJar (TRACEBEAT_BENCH_FAT_JAR=1 puts it in the app's own jar
// instead, which Gradle then normalises again, classpath snapshot of every
// entry, in every build).
func jarEditCycle(t *testing.T, e env, library string) editCycle {
	dir := filepath.Join(t.TempDir(), "sample")
	copyTree(t, filepath.Join(javatest.RepoRoot(t), "testdata", "gradle", "sample"), dir)
	script := filepath.Join(dir, "build.gradle")
	src := readFile(t, script)
	if os.Getenv("TRACEBEAT_BENCH_FAT_JAR") != "" {
		src += "\njar { from(zipTree('" + library + "')) { exclude 'META-INF/**' } }\n"
	} else {
		src += "\ntracebeatJar { classes = classes + files('" + library + "') }\n"
	}
	require.NoError(t, os.WriteFile(script, []byte(src), 0o644))
	return editCycle{
		dir:    dir,
		args:   []string{"-PtracebeatPluginClasspath=" + e.jars.plugin, "-PtracebeatTool=" + e.tool, "--profile", "assemble"},
		task:   ":tracebeatJar",
		edited: filepath.Join(dir, "src", "main", "java", "demo", "Worker.java"),
	}
}

// androidEditCycle is the AGP stand-in's app with the sample's sources in
// src/main/java, the stand-in's own in src/second/java, the sample's block
// list and base map, and groovy-all as a dependency jar.
func androidEditCycle(t *testing.T, e env, library string) editCycle {
	root := javatest.RepoRoot(t)
	sample := filepath.Join(root, "testdata", "gradle", "sample")
	dir := filepath.Join(t.TempDir(), "app")
	copyTree(t, filepath.Join(root, "testdata", "gradle", "android-standin", "app"), dir)
	require.NoError(t, os.Rename(filepath.Join(dir, "src", "main"), filepath.Join(dir, "src", "second")))
	copyTree(t, filepath.Join(sample, "src", "main"), filepath.Join(dir, "src", "main"))
	for _, name := range []string{"tracebeat-blacklist.txt", "tracebeat-base-map.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(readFile(t, filepath.Join(sample, name))), 0o644))
	}
	script := `buildscript {
    dependencies {
        classpath files(project.property('tracebeatPluginClasspath').split(File.pathSeparator))
    }
}

apply plugin: 'com.android.application'
apply plugin: 'com.github.tracebeat'

tracebeat {
    toolPath = findProperty('tracebeatTool')
    blackListFile = 'tracebeat-blacklist.txt'
    baseMethodMapFile = file('tracebeat-base-map.txt')
    variants = [release: false]
    if (findProperty('tracebeatExtraArgs')) {
        extraArgs = [findProperty('tracebeatExtraArgs')]
    }
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "build.gradle"), []byte(script), 0o644))
	classpath := strings.Join([]string{e.jars.plugin, e.jars.agpAPI, e.jars.fakeAGP}, string(os.PathListSeparator))
	return editCycle{
		dir: dir,
		args: append([]string{"-PtracebeatPluginClasspath=" + classpath, "-PtracebeatTool=" + e.tool,
			"-PstandinExtraJars=" + library, "--profile", "assemble"}, debugArgs()...),
		task:   ":tracebeatInstrumentDebug",
		edited: filepath.Join(dir, "src", "main", "java", "demo", "Worker.java"),
	}
}

// debugArgs has the tool log at debug level when TRACEBEAT_BENCH_DEBUG is
// set (the Android shape's script passes -PtracebeatExtraArgs on).
func debugArgs() []string {
	if os.Getenv("TRACEBEAT_BENCH_DEBUG") == "" {
		return nil
	}
	return []string{"-PtracebeatExtraArgs=--log-level=debug"}
}

func fileTime(t *testing.T, p string) int64 {
	st, err := os.Stat(p)
	require.NoError(t, err)
	return st.ModTime().UnixNano()
}
