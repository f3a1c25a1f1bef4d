package gradle

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tracebeat/tracebeat/internal/ci"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/release"
)

// gradleTimeout bounds one Gradle build (Gradle 4.4.1 with --no-daemon
// takes 5-20 s here).
const gradleTimeout = 5 * time.Minute

// requireGradle makes the test depend on a `gradle` on PATH. Like
// javatest.RequireJava, a missing tool fails the test on CI (CI=true) and
// skips it elsewhere. Debian: apt-get install -y gradle (4.4.1, runs offline
// on JDK 17).
func requireGradle(tb testing.TB) string {
	tb.Helper()
	javatest.RequireJava(tb)
	path, err := exec.LookPath("gradle")
	if err == nil {
		return path
	}
	if ci.On() {
		tb.Fatalf("gradle not found on PATH, and CI=true requires it (Debian: apt-get install -y gradle)")
	}
	tb.Skipf("gradle not found on PATH; install Gradle (Debian: apt-get install -y gradle) to run this test")
	return ""
}

// gradleAPIClasspath lists the jars to compile the plugin against (see
// release.GradleAPIClasspath).
func gradleAPIClasspath(tb testing.TB, gradleBin string) []string {
	tb.Helper()
	jars, err := release.GradleAPIClasspath(gradleBin)
	if err != nil {
		tb.Fatal(err)
	}
	return jars
}

// pluginJars are the jars a build script puts on its classpath.
type pluginJars struct {
	plugin  string // the tracebeat plugin (gradle/src/main)
	agpAPI  string // AGP 8 API signatures + Function1 + TaskProvider (stand-in only)
	fakeAGP string // the com.android.application stand-in
}

// buildPluginJars compiles the plugin and the AGP stand-in with javac
// --release 8 against the Gradle installation's API, as a user's build of
// the plugin would, and packs them with their META-INF resources.
func buildPluginJars(tb testing.TB, gradleBin string) pluginJars {
	tb.Helper()
	root := javatest.RepoRoot(tb)
	gradleCP := gradleAPIClasspath(tb, gradleBin)
	standin := filepath.Join(root, "testdata", "gradle", "android-standin")
	opts := func(extra ...string) javatest.Options {
		return javatest.Options{Release: 8, Classpath: append(append([]string{}, gradleCP...), extra...)}
	}
	api := javatest.Javac(tb, opts(), filepath.Join(standin, "agp-api"))
	plugin := javatest.Javac(tb, opts(api), filepath.Join(root, "gradle", "src", "main", "java"))
	fake := javatest.Javac(tb, opts(api), filepath.Join(standin, "fake-agp"))
	return pluginJars{
		plugin:  jarWithResources(tb, plugin, filepath.Join(root, "gradle", "src", "main", "resources")),
		agpAPI:  jarWithResources(tb, api, ""),
		fakeAGP: jarWithResources(tb, fake, filepath.Join(standin, "fake-agp", "META-INF")),
	}
}

// jarWithResources packs the classes of classDir and the files below
// resources (a resources root, or a META-INF directory) into one jar.
func jarWithResources(tb testing.TB, classDir, resources string) string {
	tb.Helper()
	entries := javatest.ClassFiles(tb, classDir)
	if resources != "" {
		prefix := ""
		if filepath.Base(resources) == "META-INF" {
			prefix = "META-INF/"
		}
		err := filepath.WalkDir(resources, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, ".java") {
				return err
			}
			rel, err := filepath.Rel(resources, p)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(p)
			entries[prefix+filepath.ToSlash(rel)] = data
			return err
		})
		if err != nil {
			tb.Fatalf("resources %s: %v", resources, err)
		}
	}
	return javatest.WriteJar(tb, entries)
}

// buildTool builds cmd/tracebeat into dir and checks that it has the
// instrument command the plugin drives.
func buildTool(tb testing.TB, dir string) string {
	tb.Helper()
	tool := filepath.Join(dir, "tracebeat")
	goBin, err := exec.LookPath("go")
	if err != nil {
		tb.Fatalf("go not on PATH: %v", err)
	}
	cmd := exec.Command(goBin, "build", "-o", tool, "./cmd/tracebeat")
	cmd.Dir = javatest.RepoRoot(tb)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build ./cmd/tracebeat: %v\n%s", err, out)
	}
	if out, err := exec.Command(tool, "instrument", "--help").CombinedOutput(); err != nil {
		tb.Fatalf("tracebeat instrument --help: %v (the plugin drives the instrument command of CLI.md)\n%s", err, out)
	}
	return tool
}

// gradleRun is one finished Gradle build.
type gradleRun struct {
	output   string            // stdout and stderr, interleaved
	outcomes map[string]string // task path -> "" (executed) or UP-TO-DATE, FROM-CACHE, ...
	err      error             // non-nil when the build failed
}

// runGradle runs `gradle --offline --no-daemon --console=plain args...` in
// dir with the given Gradle user home.
func runGradle(tb testing.TB, gradleBin, userHome, dir string, args ...string) gradleRun {
	tb.Helper()
	return runGradleEnv(tb, gradleBin, userHome, dir, nil, args...)
}

// runGradleEnv is runGradle with env added to the environment.
func runGradleEnv(tb testing.TB, gradleBin, userHome, dir string, env []string, args ...string) gradleRun {
	tb.Helper()
	return runGradleAs(tb, gradleBin, userHome, dir, env, []string{"--stacktrace"}, args...)
}

// runGradleAs runs Gradle as runGradleEnv does, with flags of its own
// (runGradleEnv's: --stacktrace; a user's build has none).
func runGradleAs(tb testing.TB, gradleBin, userHome, dir string, env, flags []string, args ...string) gradleRun {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), gradleTimeout)
	defer cancel()
	full := append(append([]string{"--offline", "--no-daemon", "--console=plain"}, flags...), "--gradle-user-home", userHome)
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, gradleBin, full...)
	cmd.Dir = dir
	cmd.WaitDelay = 10 * time.Second
	// The plugin must use what the build passes, not a binary from the environment.
	cmd.Env = append(withoutEnv(os.Environ(), "TRACEBEAT_TOOL"), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		tb.Fatalf("gradle %v in %s: timed out after %v\n%s", args, dir, gradleTimeout, out.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		tb.Fatalf("cannot start gradle: %v", err)
	}
	return gradleRun{output: out.String(), outcomes: taskOutcomes(out.String()), err: err}
}

func withoutEnv(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// taskLine matches a task status line of the plain console: ":jar" or
// ":jar UP-TO-DATE" (Gradle 4.x), "> Task :jar FROM-CACHE" (Gradle 5+).
var taskLine = regexp.MustCompile(`^(?:> Task )?(:[A-Za-z0-9_:.-]+)(?: (UP-TO-DATE|FROM-CACHE|SKIPPED|NO-SOURCE|FAILED))?$`)

// taskOutcomes maps every task the build ran to its outcome; "" means the
// task's actions executed.
func taskOutcomes(output string) map[string]string {
	outcomes := map[string]string{}
	for _, line := range strings.Split(output, "\n") {
		if m := taskLine.FindStringSubmatch(strings.TrimRight(line, "\r ")); m != nil {
			outcomes[m[1]] = m[2]
		}
	}
	return outcomes
}

// copyTree copies the sample project src to a new directory dst.
func copyTree(tb testing.TB, src, dst string) {
	tb.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if d.Name() == "build" || d.Name() == ".gradle" {
				return filepath.SkipDir // leftovers of a build run in place
			}
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		tb.Fatalf("copy %s: %v", src, err)
	}
}

// jarClassesMentioning returns the class entries of a jar whose bytes
// contain s (e.g. a class name in the constant pool).
func jarClassesMentioning(tb testing.TB, jar, s string) []string {
	tb.Helper()
	zr, err := zip.OpenReader(jar)
	if err != nil {
		tb.Fatalf("open %s: %v", jar, err)
	}
	defer zr.Close()
	var hits []string
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".class") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			tb.Fatalf("%s: %s: %v", jar, f.Name, err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatalf("%s: %s: %v", jar, f.Name, err)
		}
		if bytes.Contains(data, []byte(s)) {
			hits = append(hits, f.Name)
		}
	}
	sort.Strings(hits)
	return hits
}

func readFile(tb testing.TB, path string) string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v", err)
	}
	return string(data)
}
