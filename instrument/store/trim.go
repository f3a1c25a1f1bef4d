package store

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultMaxAge is how long the cache keeps what no run used: a pack, or
// the snapshot of a run (each tool binary has its own, so every upgrade
// leaves the last one's). Gradle keeps its own cache entries as long.
const DefaultMaxAge = 7 * 24 * time.Hour

// trimEvery is how often a run looks for what to remove: a listing of the
// cache is not free, and an edit build takes tens of milliseconds.
const trimEvery = time.Hour

// Used marks the packs and the run snapshot a run used as used now, so
// that Trim keeps them: a file's modification time is when it was last
// written or used.
func (s *Store) Used(packs []string, identity string) {
	now := time.Now()
	for _, key := range packs {
		if key == "" {
			continue
		}
		for _, part := range []Part{Index, Bodies, Jar} {
			os.Chtimes(s.Path(key, part), now, now) // a part the pack lacks: nothing to mark
		}
	}
	if identity != "" {
		for _, suffix := range []string{"", ".ignore", ".report"} {
			os.Chtimes(filepath.Join(s.dir, "runs", identity+suffix), now, now)
		}
	}
}

// Trim removes the packs and run snapshots that no run wrote or used
// within maxAge, at most once per trimEvery. Another run that shares the
// cache marks what it uses when it starts using it, long before maxAge
// runs out, so nothing in use is removed; a file removed under a reader
// that opened it stays readable to it. It returns how many files went.
func (s *Store) Trim(maxAge time.Duration, now time.Time) int {
	stamp := filepath.Join(s.dir, "trimmed")
	if st, err := os.Stat(stamp); err == nil && now.Sub(st.ModTime()) < trimEvery && now.After(st.ModTime()) {
		return 0
	}
	if f, err := os.Create(stamp); err == nil {
		f.Close()
		os.Chtimes(stamp, now, now)
	}
	cutoff := now.Add(-maxAge)
	removed := 0
	// A pack's parts and a run's files go together: by the newest of them.
	for _, sub := range []string{"packs", "runs"} {
		dir := filepath.Join(s.dir, sub)
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		newest := map[string]time.Time{}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue // a temporary file of a run at work
			}
			info, err := e.Info()
			if err != nil {
				continue
			}
			g := group(e.Name())
			if t := info.ModTime(); t.After(newest[g]) {
				newest[g] = t
			}
		}
		for _, e := range entries {
			name := e.Name()
			if t, ok := newest[group(name)]; ok && t.Before(cutoff) {
				if os.Remove(filepath.Join(dir, name)) == nil {
					removed++
				}
			}
		}
	}
	return removed
}

// group is what a file of packs/ or runs/ belongs to: its name up to the
// first dot (a pack's key, a run's identity).
func group(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return name
}
