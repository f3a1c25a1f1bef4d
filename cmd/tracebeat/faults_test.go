package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/ci"
)

// TestMain lets the tests start this test binary as the tracebeat command
// (TRACEBEAT_AS_CLI=1), to send it real signals, or as a process that
// keeps a core busy (TRACEBEAT_AS_SPINNER=1).
func TestMain(m *testing.M) {
	if os.Getenv("TRACEBEAT_AS_CLI") == "1" {
		os.Exit(runMain(os.Args[1:], os.Stdout, os.Stderr))
	}
	if os.Getenv("TRACEBEAT_AS_SPINNER") == "1" {
		spin() // loadedclock_test.go: a process that only burns a core
	}
	os.Exit(m.Run())
}

// startCLI starts tracebeat as a process of its own.
func startCLI(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TRACEBEAT_AS_CLI=1")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	return cmd, stderr
}

// syncBuffer is a buffer the test reads while the process writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// killPoint is a moment of a run that the test can see from outside: a
// phase it logged (--log-level debug) or a file it wrote.
type killPoint struct {
	name    string
	reached func(stderr string, out, cache string) bool
}

// phaseDone: the run logged the end of the phase.
func phaseDone(phase string) func(string, string, string) bool {
	return func(stderr, _, _ string) bool { return strings.Contains(stderr, `"phase": "`+phase+`"`) }
}

// tempIn: a temporary file of at least minSize bytes exists in dir (out
// or cache, and below it).
func tempIn(which string, minSize int64) func(string, string, string) bool {
	return func(_, out, cache string) bool {
		dir := map[string]string{"out": out, "cache": cache}[which]
		found := false
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || found || d.IsDir() {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") && strings.HasSuffix(d.Name(), ".tmp") {
				if info, err := d.Info(); err == nil && info.Size() >= minSize {
					found = true
				}
			}
			return nil
		})
		return found
	}
}

// waitFor polls until the run reaches the point, and reports false when
// it ended first (a fast machine can finish a phase between two looks).
func waitFor(t *testing.T, cmd *exec.Cmd, exited <-chan struct{}, stderr *syncBuffer, p killPoint, out, cache string) bool {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if p.reached(stderr.String(), out, cache) {
			return true
		}
		select {
		case <-exited:
			return false
		case <-time.After(time.Millisecond):
		}
	}
	t.Fatalf("the run did not reach %q in 2 minutes", p.name)
	return false
}

// faultInputs are real jars large enough for a run of about a second
// here, from the packages scripts/test.sh installs; under the race
// detector, the two groovy jars (still a write phase of seconds there).
func faultInputs(t *testing.T) []string {
	t.Helper()
	ins := []string{"/usr/share/java/groovy-all.jar", "/usr/share/java/groovy.jar", "/usr/share/java/kotlin-reflect.jar"}
	if raceEnabled {
		ins = ins[:2]
	}
	for _, p := range ins {
		if _, err := os.Stat(p); err != nil {
			if ci.On() {
				t.Fatalf("%s missing (scripts/test.sh installs groovy and kotlin)", p)
			}
			t.Skipf("%s missing", p)
		}
	}
	return ins
}

// fileSet hashes the files of a folder by name; temporary files and
// journals are listed as such.
func fileSet(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return out
	}
	require.NoError(t, err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		sum := sha256.Sum256(data)
		out[e.Name()] = hex.EncodeToString(sum[:8])
	}
	return out
}

func debris(set map[string]string) []string {
	var out []string
	for name := range set {
		// The output inventory belongs to the published set.
		if strings.HasPrefix(name, ".") && !strings.HasSuffix(name, ".tracebeat-outputs") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, os.RemoveAll(to))
	require.NoError(t, os.MkdirAll(to, 0o755))
	entries, err := os.ReadDir(from)
	require.NoError(t, err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(to, e.Name()), data, 0o644))
	}
}

// TestInterruptedRunsLeaveACompleteSet: a run interrupted (SIGINT,
// SIGTERM) at any moment leaves the previous outputs, or, when the signal
// comes while it publishes, the complete new ones; it removes its
// temporary files and exits 130 or 143. A run killed (SIGKILL) with
// --cache leaves the previous set or the new one, and the next run
// removes what it left, in the output folder and the cache, and writes
// exactly what a clean run writes.
func TestInterruptedRunsLeaveACompleteSet(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	inputs := faultInputs(t)
	work := t.TempDir()
	prevDir, newDir := filepath.Join(work, "prev"), filepath.Join(work, "new")
	code, _, stderr := runCLI(append([]string{"instrument", "--quiet", "--mode", "systrace", "-o", prevDir}, inputs...)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI(append([]string{"instrument", "--quiet", "-o", newDir}, inputs...)...)
	require.Equal(t, 0, code, stderr)
	prev, want := fileSet(t, prevDir), fileSet(t, newDir)
	require.NotEqual(t, prev, want)

	out := filepath.Join(work, "out")
	check := func(t *testing.T, got map[string]string) string {
		switch {
		case fmt.Sprint(got) == fmt.Sprint(prev):
			return "previous"
		case fmt.Sprint(got) == fmt.Sprint(want):
			return "new"
		}
		t.Fatalf("a mix of sets: %v\nprevious: %v\nnew: %v", got, prev, want)
		return ""
	}
	// The moments to stop a run at, seen from outside rather than guessed
	// as delays: a slow machine (or -race) and a fast one stop it at the
	// same points.
	points := []killPoint{
		{"its signal handler is installed", phaseDone("options")},
		{"it has scanned", phaseDone("scan")},
		{"it writes a temporary output", tempIn("out", 0)},
		{"a temporary output holds 1 MB", tempIn("out", 1<<20)},
		{"it has written the jars", phaseDone("write")},
		{"it has laid out the maps", phaseDone("maps")},
	}
	args := func(extra ...string) []string {
		return append(append([]string{"instrument", "--log-level", "debug"}, extra...), inputs...)
	}
	seen := map[string]int{}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, point := range points {
			t.Run(fmt.Sprintf("%v when %s", sig, point.name), func(t *testing.T) {
				copyDir(t, prevDir, out)
				cmd, stderr := startCLI(t, args("-o", out)...)
				exited := make(chan struct{})
				var err error
				go func() { err = cmd.Wait(); close(exited) }()
				if waitFor(t, cmd, exited, stderr, point, out, "") {
					require.NoError(t, cmd.Process.Signal(sig))
				}
				<-exited
				got := fileSet(t, out)
				assert.Empty(t, debris(got), "temporary files left")
				set := check(t, got)
				seen[set]++
				var exit *exec.ExitError
				if err == nil {
					assert.Equal(t, "new", set, "a run that ended well published")
					return
				}
				require.ErrorAs(t, err, &exit)
				wantCode := exitSIGINT
				if sig == syscall.SIGTERM {
					wantCode = exitSIGTERM
				}
				assert.Equal(t, wantCode, exit.ExitCode(), stderr.String())
				assert.Contains(t, stderr.String(), "interrupted")
				if set == "previous" {
					assert.Contains(t, stderr.String(), "the previous outputs are as they were")
				}
			})
		}
	}
	assert.Positive(t, seen["previous"], "some signal came before the end: %v", seen)

	// SIGKILL, with a cache: no chance to clean up; the next run does.
	cache := filepath.Join(work, "cache")
	leftBehind := 0
	killPoints := []killPoint{
		{"it has scanned", phaseDone("scan")},
		{"it writes a temporary cache file", tempIn("cache", 0)},
		{"it writes a temporary output", tempIn("out", 0)},
		{"a temporary output holds 1 MB", tempIn("out", 1<<20)},
		{"it has written the jars", phaseDone("write")},
		{"it has laid out the maps", phaseDone("maps")},
	}
	for _, point := range killPoints {
		t.Run("SIGKILL when "+point.name, func(t *testing.T) {
			copyDir(t, prevDir, out)
			require.NoError(t, os.RemoveAll(cache)) // a cold run: it writes the cache as it goes
			cmd, stderr := startCLI(t, args("--cache", cache, "-o", out)...)
			exited := make(chan struct{})
			go func() { _ = cmd.Wait(); close(exited) }()
			if waitFor(t, cmd, exited, stderr, point, out, cache) {
				require.NoError(t, cmd.Process.Kill())
			}
			<-exited
			got := fileSet(t, out)
			if len(debris(got)) > 0 || len(cacheDebris(t, cache)) > 0 {
				leftBehind++
			}
			journal := false
			for _, d := range debris(got) {
				journal = journal || strings.HasSuffix(d, ".journal")
				delete(got, d)
			}
			if !journal {
				check(t, got)
			}
			code, _, stderr2 := runCLI(args("--quiet", "--cache", cache, "-o", out)...)
			require.Equal(t, 0, code, stderr2)
			assert.Equal(t, want, fileSet(t, out), "the next run writes what a clean run writes, and nothing else")
			assert.Empty(t, cacheDebris(t, cache), "the next run removed the cache's half-written files")
		})
	}
	assert.Positive(t, leftBehind, "some killed run left temporary files for the next run to remove")
}

// cacheDebris lists the temporary files below the cache.
func cacheDebris(t *testing.T, dir string) []string {
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(d.Name(), ".tracebeat-") && strings.HasSuffix(d.Name(), ".tmp") {
			out = append(out, p)
		}
		return nil
	}))
	return out
}

// TestConcurrentRunsShareACache: two processes on one --cache at once,
// five times over, give byte-identical outputs, the same as a run
// without a cache.
func TestConcurrentRunsShareACache(t *testing.T) {
	inputs := faultInputs(t)[1:] // all but groovy-all
	work := t.TempDir()
	ref := filepath.Join(work, "ref")
	code, _, stderr := runCLI(append([]string{"instrument", "--quiet", "-o", ref}, inputs...)...)
	require.Equal(t, 0, code, stderr)
	want := fileSet(t, ref)
	cache := filepath.Join(work, "cache")
	for round := 0; round < 5; round++ {
		var cmds []*exec.Cmd
		var errs []*syncBuffer
		var outs []string
		for k := 0; k < 2; k++ {
			out := filepath.Join(work, fmt.Sprintf("out-%d-%d", round, k))
			cmd, stderr := startCLI(t, append([]string{"instrument", "--quiet", "--cache", cache, "-o", out}, inputs...)...)
			cmds, errs, outs = append(cmds, cmd), append(errs, stderr), append(outs, out)
		}
		for k, cmd := range cmds {
			require.NoError(t, cmd.Wait(), "round %d, run %d: %s", round, k, errs[k])
			assert.Equal(t, want, fileSet(t, outs[k]), "round %d, run %d", round, k)
		}
	}
}
