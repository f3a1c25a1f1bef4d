package outset

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
)

// An inventory lists what a run published in its folder, so that the next
// run of the same output there can remove what it no longer writes (a
// mirror of an input that is gone) and nothing else: a file the tool did
// not write is never in it, and a listed file that changed since (another
// size or time, a folder with other contents) is left where it is.
//
// It is a text file in the folder: a header, then one line per output,
// "fingerprint<TAB>slash-separated path relative to the folder". Outputs
// outside the folder are not listed; they are named by the user each run.

const inventoryHeader = "tracebeat outputs 1"

// Track makes Publish keep an inventory named name in the set's folder,
// and remove what the last inventory of that name listed but this set no
// longer writes.
func (s *Set) Track(name string) { s.inventory = filepath.Join(filepath.Dir(s.journal), name) }

// Holds declares an output of this set that is in place already (a map
// that holds what the run would write, left alone): the inventory lists
// it like a staged one, so it is not taken for an earlier run's leftover.
func (s *Set) Holds(final string) { s.inPlace = append(s.inPlace, final) }

// Kept lists the outputs of an earlier run that the last Publish did not
// remove because they changed since that run wrote them.
func (s *Set) Kept() []string { return s.kept }

// Removed lists the outputs of an earlier run that the last Publish
// removed.
func (s *Set) Removed() []string { return s.removed }

// Notes says what the last Publish found worth a warning about the
// inventory itself (one it could not read).
func (s *Set) Notes() []string { return s.notes }

// inventoryEntry is one listed output.
type inventoryEntry struct{ print, rel string }

// fingerprint tells whether a file or folder is still as written: the
// size and XXH3 of a file; of a folder, the number of files and one XXH3
// of every file's path and bytes in walking order. Contents, not times,
// so that the same outputs give the same inventory (a folder of outputs
// compares byte for byte between two runs).
func fingerprint(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	h := xxh3.New()
	if !st.IsDir() {
		if err := hashFile(h, path); err != nil {
			return "", err
		}
		return fmt.Sprintf("f:%d:%x", st.Size(), h.Sum128().Bytes()), nil
	}
	files := 0
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(path, p)
		if err != nil {
			return err
		}
		files++
		h.WriteString(filepath.ToSlash(rel) + "\x00")
		return hashFile(h, p)
	})
	return fmt.Sprintf("d:%d:%x", files, h.Sum128().Bytes()), err
}

func hashFile(h *xxh3.Hasher, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// readInventory reads an inventory; a missing one is empty. A file that
// is not one this package wrote is an error: nothing is removed on its
// word.
func readInventory(path string) ([]inventoryEntry, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() || sc.Text() != inventoryHeader {
		return nil, fmt.Errorf("%s: not an output inventory of tracebeat", path)
	}
	var entries []inventoryEntry
	for sc.Scan() {
		print, rel, ok := strings.Cut(sc.Text(), "\t")
		if !ok || !filepath.IsLocal(filepath.FromSlash(rel)) {
			return nil, fmt.Errorf("%s: not an output inventory of tracebeat", path)
		}
		entries = append(entries, inventoryEntry{print, rel})
	}
	return entries, sc.Err()
}

// planInventory stages the new inventory and returns the outputs of the
// last one that this set no longer writes and that are as that run left
// them; the changed ones go to s.kept. It runs before anything moves, so
// the fingerprints are those of the staged files (a rename keeps them).
func (s *Set) planInventory() (stale []string, err error) {
	dir, err := filepath.Abs(filepath.Dir(s.inventory))
	if err != nil {
		return nil, err
	}
	old, err := readInventory(s.inventory)
	if err != nil {
		// Not ours, or damaged: nothing is removed on its word, and this
		// run's inventory replaces it.
		s.notes = append(s.notes, err.Error()+": not used (nothing of an earlier run removed); replaced by this run's")
		old = nil
	}
	var listed []inventoryEntry
	writes := map[string]bool{}
	outputs := slices.Clone(s.items)
	for _, p := range s.inPlace {
		outputs = append(outputs, item{temp: p, final: p}) // fingerprinted where it is
	}
	for _, it := range outputs {
		final, err := filepath.Abs(it.final)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, final)
		if err != nil || !filepath.IsLocal(rel) {
			continue // named by the user outside the folder
		}
		print, err := fingerprint(it.temp)
		if err != nil {
			return nil, err
		}
		writes[filepath.ToSlash(rel)] = true
		listed = append(listed, inventoryEntry{print, filepath.ToSlash(rel)})
	}
	// Outputs are staged as they finish, in no fixed order.
	slices.SortFunc(listed, func(a, b inventoryEntry) int { return strings.Compare(a.rel, b.rel) })
	var b strings.Builder
	b.WriteString(inventoryHeader + "\n")
	for _, e := range listed {
		fmt.Fprintf(&b, "%s\t%s\n", e.print, e.rel)
	}
	for _, e := range old {
		if writes[e.rel] {
			continue
		}
		// As the user named the folder, for messages.
		path := filepath.Join(filepath.Dir(s.inventory), filepath.FromSlash(e.rel))
		now, err := fingerprint(path)
		switch {
		case os.IsNotExist(err):
			// gone already
		case err != nil || now != e.print:
			s.kept = append(s.kept, path)
		default:
			stale = append(stale, path)
		}
	}
	if atomicfile.Holds(s.inventory, []byte(b.String())) {
		return stale, nil
	}
	tmp, err := stageBytes(s.inventory, []byte(b.String()))
	if err != nil {
		return nil, err
	}
	s.Add(tmp, s.inventory)
	return stale, nil
}
