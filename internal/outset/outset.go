// Package outset publishes the outputs of a run (jars or class folders,
// the maps, the report) as one set, and cleans up after runs that died.
//
// Every output is first written completely under a temporary name beside
// its final one. Then Publish writes a journal that lists each temporary
// file with its final name, renames them into place one by one, and
// removes the journal. So:
//
//   - a run that fails or is interrupted before Publish leaves every final
//     name as it was: the previous set; Discard removes its temporary files;
//   - a run killed (SIGKILL) before the journal exists leaves the previous
//     set, and temporary files that the next run recognises by the dead
//     process's id in their names and removes (Recover);
//   - a run killed after the journal exists, while it renames, leaves the
//     journal: the next run finds it before it does anything else and
//     finishes the renames (every temporary file was complete when the
//     journal was written), so it sees the complete new set.
//
// With Track, the set also publishes an inventory of what it wrote in its
// folder, and the journal removes what the last inventory of the same
// name listed and this set no longer writes (inventory.go): after a run
// the folder holds that run's outputs and whatever else the user put
// there, never an output of an earlier run with ids of another map.
//
// The renames take microseconds each; between a kill in that window and
// the next run, a reader of the folder could find some outputs new and
// some old. A file system offers no rename of several files at once, and
// the journal is how that window closes.
package outset

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
)

// journalPattern matches journals: ".tracebeat-publish-PID.journal".
var journalPattern = regexp.MustCompile(`^\.tracebeat-publish-(\d+)\.journal$`)

// journalHeader opens a journal; journals of version 1 (renames only)
// are still finished.
const (
	journalHeader   = "tracebeat publish journal 2"
	journalHeaderV1 = "tracebeat publish journal 1"
	// removeMark stands where a journal line names a temporary file when
	// the line is a removal of a stale output instead of a rename.
	removeMark = "remove"
)

// A Set collects staged outputs for Publish.
type Set struct {
	journal string
	items   []item
	// inventory, when set (Track), is the file listing what the set
	// publishes; kept are stale outputs left because they changed.
	inventory string
	inPlace   []string // outputs of this set left in place (Holds)
	kept      []string
	removed   []string
	notes     []string
}

type item struct{ temp, final string }

// New returns an empty set whose journal will live in dir (the run's
// output folder).
func New(dir string) *Set {
	return &Set{journal: filepath.Join(dir, fmt.Sprintf(".tracebeat-publish-%d.journal", os.Getpid()))}
}

// Add stages temp (a complete file or folder) to replace final.
func (s *Set) Add(temp, final string) { s.items = append(s.items, item{temp, final}) }

// Len is the number of staged outputs.
func (s *Set) Len() int { return len(s.items) }

// Discard removes every staged temporary file.
func (s *Set) Discard() {
	for _, it := range s.items {
		os.RemoveAll(it.temp)
	}
	s.items = nil
}

// Publish moves every staged output into place as described in the
// package comment. On an error before the journal is written nothing has
// changed and the staged files are removed; after, the renames are tried
// to the end and the journal stays for the next run if one fails.
func (s *Set) Publish() error {
	if len(s.items) == 0 && s.inventory == "" {
		return nil
	}
	// What a rename would refuse is refused before anything moves: a file
	// cannot replace a folder, nor a folder a file.
	for _, it := range s.items {
		t, terr := os.Lstat(it.temp)
		f, ferr := os.Lstat(it.final)
		if terr != nil {
			s.Discard()
			return terr
		}
		if ferr == nil && t.IsDir() != f.IsDir() {
			s.Discard()
			kind := "a folder"
			if !f.IsDir() {
				kind = "a file"
			}
			return fmt.Errorf("%s: is %s, which the output cannot replace", it.final, kind)
		}
	}
	var stale []string
	if s.inventory != "" {
		var err error
		if stale, err = s.planInventory(); err != nil {
			s.Discard()
			return fmt.Errorf("publishing the outputs: %w", err)
		}
	}
	if len(s.items) == 0 && len(stale) == 0 {
		return nil // everything in place already
	}
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	var b strings.Builder
	b.WriteString(journalHeader + "\n")
	for _, it := range s.items {
		fmt.Fprintf(&b, "%s\t%s\n", abs(it.temp), abs(it.final))
	}
	for _, p := range stale {
		fmt.Fprintf(&b, "%s\t%s\n", removeMark, abs(p))
	}
	if err := os.MkdirAll(filepath.Dir(s.journal), 0o755); err != nil {
		s.Discard()
		return err
	}
	if err := atomicfile.WriteBytes(s.journal, 0o644, []byte(b.String())); err != nil {
		s.Discard()
		return fmt.Errorf("publishing the outputs: %w", err)
	}
	var first error
	for _, it := range s.items {
		if err := move(it.temp, it.final); err != nil && first == nil {
			first = fmt.Errorf("%s: %w", it.final, err)
		}
	}
	s.items = nil
	for _, p := range stale {
		if err := os.RemoveAll(p); err != nil && first == nil {
			first = fmt.Errorf("removing %s, an output of an earlier run: %w", p, err)
		}
	}
	s.removed = stale
	if first != nil {
		return first // the journal stays: the next run finishes the job
	}
	return os.Remove(s.journal)
}

// stageBytes writes data under a temporary name beside final.
func stageBytes(final string, data []byte) (string, error) {
	f, err := atomicfile.CreateTemp(final)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// move puts a complete temporary file or folder in place of final.
func move(temp, final string) error {
	st, err := os.Lstat(temp)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return atomicfile.Replace(temp, final)
	}
	// A folder cannot be renamed over a folder: the old one goes aside
	// first. A kill between the two renames leaves the old one aside under
	// a temporary name (Recover removes it) and the new one still staged,
	// which the journal puts in place.
	if old, err := os.Lstat(final); err == nil && old.IsDir() {
		aside := atomicfile.TempPath(final)
		if err := os.Rename(final, aside); err != nil {
			return err
		}
		defer os.RemoveAll(aside)
	}
	return os.Rename(temp, final)
}

// Recover readies a folder a run is about to write: it finishes the
// publishing of runs that were killed while they renamed (their journals),
// then removes the temporary files of runs that are no longer running, and
// those of earlier versions older than an hour. Folders that do not exist
// need nothing. It reports the first problem and goes on with the rest.
func Recover(dir string) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil // nothing to recover (a path below a file is the writer's error to report)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var first error
	note := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for _, e := range entries {
		if m := journalPattern.FindStringSubmatch(e.Name()); m != nil && !atomicfile.OwnerAlive(m[1]) {
			note(finish(filepath.Join(dir, e.Name())))
		}
	}
	note(atomicfile.SweepTemps(dir))
	return first
}

// finish completes the renames a journal lists, then removes it. A
// staged file that is gone was renamed already.
func finish(journal string) error {
	f, err := os.Open(journal)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var items []item
	ok := sc.Scan() && (sc.Text() == journalHeader || sc.Text() == journalHeaderV1)
	for ok && sc.Scan() {
		temp, final, found := strings.Cut(sc.Text(), "\t")
		if !found {
			ok = false
			break
		}
		items = append(items, item{temp, final})
	}
	f.Close()
	if !ok || sc.Err() != nil {
		// Not a journal this package wrote completely (it is written
		// atomically, so this is someone else's file): leave it.
		return fmt.Errorf("%s: not a readable publish journal", journal)
	}
	for _, it := range items {
		if it.temp == removeMark {
			if err := os.RemoveAll(it.final); err != nil {
				return fmt.Errorf("finishing %s: removing %s: %w", journal, it.final, err)
			}
			continue
		}
		if _, err := os.Lstat(it.temp); err != nil {
			continue
		}
		if err := move(it.temp, it.final); err != nil {
			return fmt.Errorf("finishing %s: %s: %w", journal, it.final, err)
		}
	}
	return os.Remove(journal)
}

// Staged returns the temporary name under which final is staged, if it is.
func (s *Set) Staged(final string) (string, bool) {
	for _, it := range s.items {
		if it.final == final {
			return it.temp, true
		}
	}
	return "", false
}
