package outset

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// deadPid returns the id of a process that has ended.
func deadPid(t *testing.T) int {
	t.Helper()
	name := "true"
	if runtime.GOOS == "windows" {
		name = "cmd"
	}
	cmd := exec.Command(name)
	if runtime.GOOS == "windows" {
		cmd.Args = append(cmd.Args, "/c", "exit")
	}
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

func TestPublish(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.jar"), "old a")
	write(t, filepath.Join(dir, "m.txt"), "old m")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "classes", "x"), 0o755))
	write(t, filepath.Join(dir, "classes", "x", "Old.class"), "old")

	s := New(dir)
	for _, f := range []struct{ name, body string }{{"a.jar", "new a"}, {"m.txt", "new m"}} {
		tmp := atomicfile.TempPath(filepath.Join(dir, f.name))
		write(t, tmp, f.body)
		s.Add(tmp, filepath.Join(dir, f.name))
	}
	tmpDir, err := atomicfile.MkdirTemp(filepath.Join(dir, "classes"))
	require.NoError(t, err)
	write(t, filepath.Join(tmpDir, "x", "New.class"), "new")
	s.Add(tmpDir, filepath.Join(dir, "classes"))
	require.NoError(t, s.Publish())

	assert.Equal(t, "new a", read(t, filepath.Join(dir, "a.jar")))
	assert.Equal(t, "new m", read(t, filepath.Join(dir, "m.txt")))
	assert.Equal(t, "new", read(t, filepath.Join(dir, "classes", "x", "New.class")))
	assert.NoFileExists(t, filepath.Join(dir, "classes", "x", "Old.class"))
	assert.ElementsMatch(t, []string{"a.jar", "m.txt", "classes"}, names(t, dir), "no journal, no temporary file")
}

// A file cannot replace a folder: refused before anything moves, and the
// staged files are gone.
func TestPublishRefusesBeforeMoving(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "m.txt"), "old m")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a.jar", "busy"), 0o755))
	s := New(dir)
	tm := atomicfile.TempPath(filepath.Join(dir, "m.txt"))
	write(t, tm, "new m")
	s.Add(tm, filepath.Join(dir, "m.txt"))
	ta := atomicfile.TempPath(filepath.Join(dir, "a.jar"))
	write(t, ta, "new a")
	s.Add(ta, filepath.Join(dir, "a.jar"))
	err := s.Publish()
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(dir, "a.jar")+": is a folder")
	assert.Equal(t, "old m", read(t, filepath.Join(dir, "m.txt")))
	assert.ElementsMatch(t, []string{"a.jar", "m.txt"}, names(t, dir))
}

// A run killed while it renamed left its journal: the next run finishes
// the renames; what it had renamed already stays.
func TestRecoverFinishesAJournal(t *testing.T) {
	dir := t.TempDir()
	pid := deadPid(t)
	final := func(n string) string { return filepath.Join(dir, n) }
	temp := func(n string) string { return filepath.Join(dir, fmt.Sprintf(".%s.tracebeat-%d-1.tmp", n, pid)) }
	write(t, final("a.jar"), "new a") // renamed before the kill
	write(t, final("m.txt"), "old m")
	write(t, temp("m.txt"), "new m")
	journal := fmt.Sprintf("%s\n%s\t%s\n%s\t%s\n", journalHeader, temp("a.jar"), final("a.jar"), temp("m.txt"), final("m.txt"))
	write(t, filepath.Join(dir, fmt.Sprintf(".tracebeat-publish-%d.journal", pid)), journal)
	require.NoError(t, Recover(dir))
	assert.Equal(t, "new a", read(t, final("a.jar")))
	assert.Equal(t, "new m", read(t, final("m.txt")))
	assert.ElementsMatch(t, []string{"a.jar", "m.txt"}, names(t, dir))
}

// Temporary files of dead processes go; this process's stay; an earlier
// version's go once they are an hour old.
func TestRecoverSweeps(t *testing.T) {
	dir := t.TempDir()
	dead := fmt.Sprintf(".a.jar.tracebeat-%d-3.tmp", deadPid(t))
	mine := fmt.Sprintf(".b.jar.tracebeat-%d-3.tmp", os.Getpid())
	write(t, filepath.Join(dir, dead), "x")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, fmt.Sprintf(".classes.tracebeat-%d-4.tmp", deadPid(t)), "p"), 0o755))
	write(t, filepath.Join(dir, mine), "x")
	write(t, filepath.Join(dir, ".old.jar.tmp-123456"), "x")
	write(t, filepath.Join(dir, ".new.jar.tmp-654321"), "x")
	write(t, filepath.Join(dir, "app.jar"), "x")
	long := time.Now().Add(-2 * time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(dir, ".old.jar.tmp-123456"), long, long))
	require.NoError(t, Recover(dir))
	assert.ElementsMatch(t, []string{mine, ".new.jar.tmp-654321", "app.jar"}, names(t, dir))
}

// Another tool's temporary file in an output folder is not ours to
// remove; in the cache, which only tracebeat writes, an old one goes.
func TestSweepLeavesOthersAlone(t *testing.T) {
	dir := t.TempDir()
	long := time.Now().Add(-2 * time.Hour)
	for _, n := range []string{".notes.md.tmp-1234", ".app.jar.tmp-1234"} {
		write(t, filepath.Join(dir, n), "x")
		require.NoError(t, os.Chtimes(filepath.Join(dir, n), long, long))
	}
	require.NoError(t, Recover(dir))
	assert.ElementsMatch(t, []string{".notes.md.tmp-1234"}, names(t, dir))
	require.NoError(t, atomicfile.SweepOwnTemps(dir))
	assert.Empty(t, names(t, dir))
}

// stage adds a staged file (or, when body is "", a folder holding one
// class) with final name name in dir.
func stage(t *testing.T, s *Set, dir, name, body string) {
	t.Helper()
	final := filepath.Join(dir, name)
	if body == "" {
		tmp, err := atomicfile.MkdirTemp(final)
		require.NoError(t, err)
		write(t, filepath.Join(tmp, "p", "C.class"), "class")
		s.Add(tmp, final)
		return
	}
	tmp := atomicfile.TempPath(final)
	write(t, tmp, body)
	s.Add(tmp, final)
}

// A tracked set removes what the last set of the same inventory wrote and
// this one does not, as that set left it; a file the user put in the
// folder, a listed file changed since and another inventory's outputs
// stay.
func TestPublishRemovesWhatTheLastRunWrote(t *testing.T) {
	dir := t.TempDir()
	first := New(dir)
	first.Track(".outputs")
	for _, n := range []string{"a.jar", "b.jar", "c.jar", "m.txt"} {
		stage(t, first, dir, n, "v1 "+n)
	}
	stage(t, first, dir, "classes", "")
	stage(t, first, dir, "edited-classes", "")
	require.NoError(t, first.Publish())
	assert.Empty(t, first.Removed())

	other := New(dir)
	other.Track(".other-outputs")
	stage(t, other, dir, "z.jar", "another run's")
	require.NoError(t, other.Publish())

	write(t, filepath.Join(dir, "notes.txt"), "the user's")
	write(t, filepath.Join(dir, "c.jar"), "the user's c, written over the output")
	write(t, filepath.Join(dir, "edited-classes", "p", "Mine.class"), "the user's")

	second := New(dir)
	second.Track(".outputs")
	stage(t, second, dir, "b.jar", "v2 b")
	stage(t, second, dir, "m.txt", "v2 m")
	require.NoError(t, second.Publish())
	assert.ElementsMatch(t, []string{filepath.Join(dir, "a.jar"), filepath.Join(dir, "classes")}, second.Removed())
	assert.ElementsMatch(t, []string{filepath.Join(dir, "c.jar"), filepath.Join(dir, "edited-classes")}, second.Kept())
	assert.ElementsMatch(t, []string{".outputs", ".other-outputs", "b.jar", "c.jar", "edited-classes", "m.txt", "notes.txt", "z.jar"}, names(t, dir))
	assert.Equal(t, "v2 b", read(t, filepath.Join(dir, "b.jar")))

	// The inventory lists what the second set wrote: the third removes
	// nothing it did not write, and the kept files are no longer listed.
	third := New(dir)
	third.Track(".outputs")
	stage(t, third, dir, "m.txt", "v3 m")
	require.NoError(t, third.Publish())
	assert.Equal(t, []string{filepath.Join(dir, "b.jar")}, third.Removed())
	assert.Empty(t, third.Kept())
}

// The same outputs give the same inventory: it holds contents, not times.
func TestInventoryIsDeterministic(t *testing.T) {
	var got []string
	for i := range 2 {
		dir := t.TempDir()
		s := New(dir)
		s.Track(".outputs")
		// Outputs are staged as they finish: in another order each run.
		if i == 0 {
			stage(t, s, dir, "a.jar", "a")
			stage(t, s, dir, "classes", "")
		} else {
			stage(t, s, dir, "classes", "")
			stage(t, s, dir, "a.jar", "a")
		}
		require.NoError(t, s.Publish())
		got = append(got, read(t, filepath.Join(dir, ".outputs")))
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, got[0], got[1])
}

// An inventory this package did not write (or one damaged) removes
// nothing: the run publishes, says so, and replaces it with its own.
func TestPublishIgnoresAForeignInventory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".outputs"), "tracebeat outputs 1\nf:1:00\t../outside.jar\n")
	write(t, filepath.Join(dir, "outside.jar"), "the user's")
	write(t, filepath.Join(dir, "m.txt"), "old m")
	s := New(dir)
	s.Track(".outputs")
	stage(t, s, dir, "m.txt", "new m")
	require.NoError(t, s.Publish())
	require.Len(t, s.Notes(), 1)
	assert.Contains(t, s.Notes()[0], "not an output inventory of tracebeat")
	assert.Empty(t, s.Removed())
	assert.Equal(t, "new m", read(t, filepath.Join(dir, "m.txt")))
	assert.ElementsMatch(t, []string{".outputs", "m.txt", "outside.jar"}, names(t, dir))
	assert.Contains(t, read(t, filepath.Join(dir, ".outputs")), "\tm.txt\n")
}

// A run killed after its renames, before its removals, left its journal:
// the next run finishes both.
func TestRecoverFinishesARemoval(t *testing.T) {
	dir := t.TempDir()
	pid := deadPid(t)
	write(t, filepath.Join(dir, "b.jar"), "new b")
	write(t, filepath.Join(dir, "a.jar"), "stale a")
	journal := fmt.Sprintf("%s\n%s\t%s\n%s\t%s\n", journalHeader,
		filepath.Join(dir, fmt.Sprintf(".b.jar.tracebeat-%d-1.tmp", pid)), filepath.Join(dir, "b.jar"),
		removeMark, filepath.Join(dir, "a.jar"))
	write(t, filepath.Join(dir, fmt.Sprintf(".tracebeat-publish-%d.journal", pid)), journal)
	require.NoError(t, Recover(dir))
	assert.ElementsMatch(t, []string{"b.jar"}, names(t, dir))
}

// An output left in place because it holds what the run would write is
// this run's all the same: not removed, and listed again.
func TestPublishKeepsOutputsInPlace(t *testing.T) {
	dir := t.TempDir()
	first := New(dir)
	first.Track(".outputs")
	stage(t, first, dir, "a.jar", "a")
	stage(t, first, dir, "m.txt", "m")
	require.NoError(t, first.Publish())
	inventory := read(t, filepath.Join(dir, ".outputs"))

	second := New(dir)
	second.Track(".outputs")
	second.Holds(filepath.Join(dir, "m.txt"))
	stage(t, second, dir, "a.jar", "a")
	require.NoError(t, second.Publish())
	assert.Empty(t, second.Removed())
	assert.ElementsMatch(t, []string{".outputs", "a.jar", "m.txt"}, names(t, dir))
	assert.Equal(t, inventory, read(t, filepath.Join(dir, ".outputs")))

	// Nothing staged, everything in place: nothing moves or goes.
	third := New(dir)
	third.Track(".outputs")
	third.Holds(filepath.Join(dir, "m.txt"))
	third.Holds(filepath.Join(dir, "a.jar"))
	require.NoError(t, third.Publish())
	assert.ElementsMatch(t, []string{".outputs", "a.jar", "m.txt"}, names(t, dir))

	// Nothing staged, one output no longer written: it goes.
	fourth := New(dir)
	fourth.Track(".outputs")
	fourth.Holds(filepath.Join(dir, "m.txt"))
	require.NoError(t, fourth.Publish())
	assert.Equal(t, []string{filepath.Join(dir, "a.jar")}, fourth.Removed())
	assert.ElementsMatch(t, []string{".outputs", "m.txt"}, names(t, dir))
}
