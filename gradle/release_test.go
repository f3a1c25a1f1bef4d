package gradle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat"
	"github.com/tracebeat/tracebeat/internal/javatest"
	"github.com/tracebeat/tracebeat/internal/release"
)

// hostRelease runs scripts/release.sh --host-only into dir/release and
// returns the repository.
func hostRelease(t *testing.T, dir string) string {
	t.Helper()
	root := javatest.RepoRoot(t)
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "release.sh"), "--host-only", filepath.Join(dir, "release"))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "release.sh:\n%s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	repo := filepath.Join(dir, "release", "maven")
	require.Equal(t, "release: version="+tracebeat.Version()+" maven="+repo, last)
	return repo
}

// sampleProject copies testdata/gradle/release-sample to dir/name; its
// build names the repository at ../release/maven.
func sampleProject(t *testing.T, dir, name string) string {
	t.Helper()
	src := filepath.Join(javatest.RepoRoot(t), "testdata", "gradle", "release-sample")
	build := readFile(t, filepath.Join(src, "build.gradle"))
	require.Contains(t, build, "id 'com.github.tracebeat' version '"+tracebeat.Version()+"'",
		"testdata/gradle/release-sample/build.gradle must name the version in VERSION")
	dst := filepath.Join(dir, name)
	copyTree(t, src, dst)
	return dst
}

// pathWithoutTracebeat is PATH without the directories that hold a
// tracebeat binary, so that only the plugin's resolution can find one.
func pathWithoutTracebeat() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "tracebeat")); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	return "PATH=" + strings.Join(keep, string(os.PathListSeparator))
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestReleaseResolvesWithNoToolPath is a user's first build: the plugin by
// id and version from the release repository, no tool path, no tracebeat on
// PATH, no TRACEBEAT_TOOL. The plugin resolves the binary of its release
// for this machine, checks its SHA-256, unpacks it under the Gradle user
// home and instruments the app; the traced jar runs with the release's
// runtime jar and the map names its methods. Two builds unpacking at the
// same time both succeed; a binary whose checksum is wrong and a platform
// the release lacks fail the build saying why.
func TestReleaseResolvesWithNoToolPath(t *testing.T) {
	gradleBin := requireGradle(t)
	dir := t.TempDir()
	repo := hostRelease(t, dir)
	version := tracebeat.Version()
	classifier, err := release.HostTarget().Classifier()
	require.NoError(t, err)
	group := filepath.Join(repo, "com", "github", "tracebeat")
	binary := filepath.Join(group, "tracebeat", version, "tracebeat-"+version+"-"+classifier+".exe")
	for _, f := range []string{
		binary,
		filepath.Join(group, "tracebeat-gradle", version, "tracebeat-gradle-"+version+".jar"),
		filepath.Join(group, "com.github.tracebeat.gradle.plugin", version, "com.github.tracebeat.gradle.plugin-"+version+".pom"),
		filepath.Join(group, "tracebeat-runtime", version, "tracebeat-runtime-"+version+".jar"),
	} {
		require.FileExists(t, f)
		require.Equal(t, fileSHA256(t, f), readFile(t, f+".sha256"), f)
		require.FileExists(t, f+".sha1")
	}
	noPath := pathWithoutTracebeat()

	project := sampleProject(t, dir, "sample")
	userHome := filepath.Join(dir, "gradle-home")
	run := runGradleEnv(t, gradleBin, userHome, project, []string{noPath}, "assemble")
	require.NoError(t, run.err, run.output)
	require.Equal(t, "", run.outcomes[":tracebeatJar"], run.output)
	unpacked := filepath.Join(userHome, "caches", "tracebeat", version, classifier, release.HostTarget().Executable())
	info, err := os.Stat(unpacked)
	require.NoError(t, err, "the binary is unpacked under the Gradle user home")
	require.NotZero(t, info.Mode()&0o111, "executable")
	require.Equal(t, fileSHA256(t, binary), fileSHA256(t, unpacked))
	filepath.WalkDir(project, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if !d.IsDir() {
			require.NotEqual(t, release.HostTarget().Executable(), d.Name(), "binary in the project: %s", p)
		}
		return nil
	})

	// The traced jar runs with the release's runtime, and the map names it.
	traced := filepath.Join(project, "build", "libs", "release-sample-traced.jar")
	methodMap := filepath.Join(project, "build", "outputs", "tracebeat", "methodMapping.txt")
	require.Contains(t, readFile(t, methodMap), "sample.Hello greet (Ljava.lang.String;)Ljava.lang.String;")
	runtimeJar := filepath.Join(group, "tracebeat-runtime", version, "tracebeat-runtime-"+version+".jar")
	trace := filepath.Join(dir, "sample.trace")
	got, err := exec.Command("java", "-Dtracebeat.trace="+trace, "-cp", runtimeJar+string(os.PathListSeparator)+traced, "sample.Hello").CombinedOutput()
	require.NoError(t, err, "%s", got)
	want, err := exec.Command("java", "-cp", filepath.Join(project, "build", "libs", "release-sample.jar"), "sample.Hello").CombinedOutput()
	require.NoError(t, err, "%s", want)
	require.Equal(t, string(want), string(got))
	decoded, err := exec.Command(unpacked, "decode", "--map", methodMap, trace).CombinedOutput()
	require.NoError(t, err, "%s", decoded)
	require.Contains(t, string(decoded), "sample.Hello.main([Ljava.lang.String;)V")
	require.Contains(t, string(decoded), "sample.Hello.sum(I)J")
	require.Contains(t, string(decoded), "1 thread, 4 calls") // main, greet, capitalize, sum; square is a one-liner the default rules skip

	// A second build uses the unpacked binary; the task is up to date.
	run = runGradleEnv(t, gradleBin, userHome, project, []string{noPath}, "assemble")
	require.NoError(t, run.err, run.output)
	require.Equal(t, "UP-TO-DATE", run.outcomes[":tracebeatJar"], run.output)

	t.Run("README snippets", func(t *testing.T) {
		testReadmeSnippets(t, gradleBin, repo, noPath)
	})

	t.Run("no repositories", func(t *testing.T) {
		// A user who pasted the plugins {} block but not repositories {}:
		// the failure shows the block to add, not only Gradle's "no
		// repositories are defined".
		p := sampleProject(t, dir, "no-repositories")
		build := readFile(t, filepath.Join(p, "build.gradle"))
		stripped := regexp.MustCompile(`(?s)\nrepositories \{.*?\n\}\n`).ReplaceAllString(build, "\n")
		require.NotEqual(t, build, stripped)
		require.NoError(t, os.WriteFile(filepath.Join(p, "build.gradle"), []byte(stripped), 0o644))
		// As a user runs it: without --stacktrace, which Gradle 4.4 needs to show a task's cause.
		r := runGradleAs(t, gradleBin, filepath.Join(dir, "gradle-home-norepo"), p, []string{noPath}, nil, "assemble")
		require.Error(t, r.err, r.output)
		require.Contains(t, r.output, "com.github.tracebeat:tracebeat:"+version+":"+classifier+"@exe, which it resolves from the repositories of root project 'release-sample', and this project has none")
		require.Contains(t, r.output, "maven { url 'https://maven.example.com/tracebeat' }")
	})

	t.Run("two builds unpack at once", func(t *testing.T) {
		home := filepath.Join(dir, "gradle-home-shared")
		var wg sync.WaitGroup
		runs := make([]gradleRun, 2)
		for i := range runs {
			p := sampleProject(t, dir, "concurrent-"+string(rune('a'+i)))
			wg.Add(1)
			go func() {
				defer wg.Done()
				runs[i] = runGradleEnv(t, gradleBin, home, p, []string{noPath}, "assemble")
			}()
		}
		wg.Wait()
		for _, r := range runs {
			require.NoError(t, r.err, r.output)
			require.Equal(t, "", r.outcomes[":tracebeatJar"], r.output)
		}
		u := filepath.Join(home, "caches", "tracebeat", version, classifier, release.HostTarget().Executable())
		require.Equal(t, fileSHA256(t, binary), fileSHA256(t, u))
		leftovers, err := filepath.Glob(filepath.Join(filepath.Dir(u), ".tracebeat-*"))
		require.NoError(t, err)
		require.Empty(t, leftovers)
	})

	t.Run("wrong checksum", func(t *testing.T) {
		// A repository whose binary is not the release's: the repository's
		// own checksum files agree with it, the plugin jar's do not.
		bad := filepath.Join(dir, "bad")
		copyTree(t, filepath.Join(dir, "release"), filepath.Join(bad, "release"))
		badBinary := filepath.Join(bad, "release", "maven", strings.TrimPrefix(binary, repo+string(filepath.Separator)))
		data, err := os.ReadFile(badBinary)
		require.NoError(t, err)
		data = append(data, 0)
		require.NoError(t, os.WriteFile(badBinary, data, 0o755))
		sum := sha256.Sum256(data)
		require.NoError(t, os.WriteFile(badBinary+".sha256", []byte(hex.EncodeToString(sum[:])), 0o644))
		require.NoError(t, os.Remove(badBinary+".sha1"))
		p := sampleProject(t, bad, "sample")
		r := runGradleEnv(t, gradleBin, filepath.Join(bad, "gradle-home"), p, []string{noPath}, "assemble")
		require.Error(t, r.err, r.output)
		require.Regexp(t, regexp.MustCompile(`has SHA-256 [0-9a-f]{64}, but release `+regexp.QuoteMeta(version)+` says [0-9a-f]{64}: refusing to run it`), r.output)
		require.NoDirExists(t, filepath.Join(bad, "gradle-home", "caches", "tracebeat", version, classifier, release.HostTarget().Executable()))
	})

	t.Run("unsupported platform", func(t *testing.T) {
		p := sampleProject(t, dir, "sparc")
		// --no-daemon runs the build in Gradle's own JVM, which GRADLE_OPTS sets up.
		r := runGradleEnv(t, gradleBin, filepath.Join(dir, "gradle-home-sparc"), p, []string{noPath, "GRADLE_OPTS=-Dos.arch=sparc"}, "assemble")
		require.Error(t, r.err, r.output)
		require.Contains(t, r.output, "tracebeat: release "+version+" has no binary for Linux/sparc (it has "+classifier+")")
		require.Contains(t, r.output, "toolPath")
		require.Contains(t, r.output, "TRACEBEAT_TOOL")
	})
}

// TestReleaseIsReproducible: two host-only releases of one tree give the
// same binary and the same plugin jar, byte for byte.
func TestReleaseIsReproducible(t *testing.T) {
	requireGradle(t)
	a, b := hostRelease(t, t.TempDir()), hostRelease(t, t.TempDir())
	var files []string
	filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		if !d.IsDir() {
			rel, _ := filepath.Rel(a, p)
			files = append(files, rel)
		}
		return nil
	})
	require.NotEmpty(t, files)
	for _, f := range files {
		da, err := os.ReadFile(filepath.Join(a, f))
		require.NoError(t, err)
		db, err := os.ReadFile(filepath.Join(b, f))
		require.NoError(t, err)
		require.True(t, bytes.Equal(da, db), "%s differs between two releases", f)
	}
}
