package main

import (
	"fmt"
	"path/filepath"
)

// table prints, for the code under dir as it is now, the outcomes a
// results file holds, by operator: the figures of the run that wrote
// them, without running anything (a run prints the whole run's operators
// only). Mutants written down as equivalent are left out, as a run leaves
// them; a mutant the file has no outcome for is counted as untested.
func (r *run) table(dir string) error {
	files, err := sourceFiles(dir)
	if err != nil {
		return err
	}
	digest, err := treeDigest(files)
	if err != nil {
		return err
	}
	byKind := map[string]*counts{}
	var all counts
	untested := 0
	for _, f := range files {
		if !r.files.MatchString(filepath.ToSlash(f)) {
			continue
		}
		ms, err := findMutants(f)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if r.equivalent[m.key()] {
				continue
			}
			o, ok := r.previous[m.key()]
			if !ok || o.digest != digest {
				untested++
				continue
			}
			if byKind[m.kind] == nil {
				byKind[m.kind] = &counts{}
			}
			byKind[m.kind].count(o.status)
			all.count(o.status)
		}
	}
	for _, k := range kinds {
		if c := byKind[k]; c != nil {
			fmt.Printf("mutate: table %s operator %-10s %d of %d\n", dir, k, c.killed+c.timedOut, c.mutants())
		}
	}
	fmt.Printf("mutate: table %s all %d of %d score=%s untested=%d\n", dir, all.killed+all.timedOut, all.mutants(), all.score(), untested)
	return nil
}
