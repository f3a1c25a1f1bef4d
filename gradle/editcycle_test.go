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

// profileTask matches a task's row in Gradle's --profile report:
// <td>:tracebeatJar</td><td class="numeric">1.234s</td>.
var profileTask = regexp.MustCompile(`<td[^>]*>:tracebeatJar</td>\s*<td class="numeric">([0-9.]+)s</td>`)

// TestEditBuildCycle measures the edit-build cycle (bench/gradle-edit.sh
// runs it; the default suite skips it): the Gradle sample grown by a real
// library (groovy-all's 4,472 classes, a second input), built with a real
// Gradle, then one source file edited and built again. It reports the
// instrument task's time in both builds (Gradle's --profile) and the tool's
// own time (its summary), and fails when the second build's task takes
// more than 20% of the first's.
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
	dir := filepath.Join(t.TempDir(), "sample")
	copyTree(t, filepath.Join(javatest.RepoRoot(t), "testdata", "gradle", "sample"), dir)
	script := filepath.Join(dir, "build.gradle")
	src := readFile(t, script)
	// The bench grows the app by a real library, a second input of the
	// task as a dependency jar is; TRACEBEAT_BENCH_FAT_JAR=1 puts it in
	// the app's own jar instead, which Gradle then normalises again
	// (classpath snapshot of every entry) in every build.
	if os.Getenv("TRACEBEAT_BENCH_FAT_JAR") != "" {
		src += "\njar { from(zipTree('" + library + "')) { exclude 'META-INF/**' } }\n"
	} else {
		src += "\ntracebeatJar { classes = classes + files('" + library + "') }\n"
	}
	require.NoError(t, os.WriteFile(script, []byte(src), 0o644))
	args := []string{"-PtracebeatPluginClasspath=" + e.jars.plugin, "-PtracebeatTool=" + e.tool, "--profile", "assemble"}

	measure := func(label string) (task, tool float64) {
		run := e.build(t, dir, args...)
		require.NoError(t, run.err, run.output)
		require.Equal(t, "", run.outcomes[":tracebeatJar"], "%s: the task runs:\n%s", label, run.output)
		reports, err := filepath.Glob(filepath.Join(dir, "build", "reports", "profile", "*.html"))
		require.NoError(t, err)
		require.NotEmpty(t, reports)
		newest := reports[0]
		for _, r := range reports {
			if a, b := fileTime(t, r), fileTime(t, newest); a > b {
				newest = r
			}
		}
		m := profileTask.FindStringSubmatch(readFile(t, newest))
		if m == nil {
			html := readFile(t, newest)
			i := strings.Index(html, "tracebeatJar")
			t.Fatalf("no :tracebeatJar row in %s: %q", newest, html[max(0, i-200):min(len(html), i+300)])
		}
		task, err = strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		stdout := readFile(t, filepath.Join(dir, "build", "tmp", "tracebeatJar", "stdout.txt"))
		s := regexp.MustCompile(`seconds=([0-9.]+)`).FindStringSubmatch(stdout)
		require.NotNil(t, s, stdout)
		tool, _ = strconv.ParseFloat(s[1], 64)
		summary := strings.SplitN(stdout, "\n", 2)[0]
		fmt.Printf("gradle-edit: %s: task_s=%.3f tool_s=%.3f %s\n", label, task, tool, summary)
		for _, l := range strings.Split(stdout, "\n") {
			if strings.Contains(l, "cache:") {
				fmt.Printf("gradle-edit: %s: %s\n", label, strings.TrimSpace(l))
			}
		}
		return task, tool
	}
	firstTask, firstTool := measure("first build")
	worker := filepath.Join(dir, "src", "main", "java", "demo", "Worker.java")
	w := readFile(t, worker)
	require.NoError(t, os.WriteFile(worker, []byte(strings.Replace(w, `"rejected=0"`, `"rejected=1"`, 1)), 0o644))
	secondTask, secondTool := measure("after one edit")
	fmt.Printf("gradle-edit: second/first task=%.2f tool=%.2f (bound: task <= 0.20)\n", secondTask/firstTask, secondTool/firstTool)
	require.LessOrEqual(t, secondTask/firstTask, 0.20)
}

func fileTime(t *testing.T, p string) int64 {
	st, err := os.Stat(p)
	require.NoError(t, err)
	return st.ModTime().UnixNano()
}
