package methodmap

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
)

// Violation is one problem found by a check. Kind is a stable short name
// (tests and tools may match on it); Msg is the readable line for the user
// and names the file, line and id involved.
type Violation struct {
	Kind string
	Msg  string
}

func (v Violation) String() string { return v.Msg }

// Violation kinds.
const (
	KindSyntax          = "syntax"
	KindIDOutOfRange    = "id-out-of-range"
	KindDuplicateID     = "duplicate-id"
	KindDuplicateMethod = "duplicate-method"
	KindUnsorted        = "unsorted"
	KindDispatch        = "dispatch" // dispatch entry missing or wrong

	KindIDChanged     = "id-changed" // same method, other id than in the base
	KindRemoved       = "removed"    // method of the base missing
	KindIDReused      = "id-reused"  // base id now names another method
	KindNewIDTooLow   = "new-id-not-above-base"
	KindNotInMap      = "id-not-in-map" // jar injects an id the map lacks
	KindOwnerMismatch = "id-owner-mismatch"
	KindMultipleIDs   = "multiple-ids"
	KindNotTraced     = "not-instrumented"
)

func violation(kind, name string, line int, format string, args ...any) Violation {
	where := name
	if line > 0 {
		where = fmt.Sprintf("%s:%d", name, line)
	}
	return Violation{Kind: kind, Msg: where + ": " + fmt.Sprintf(format, args...)}
}

// CheckMapFile parses a map leniently (every malformed line is reported and
// skipped) and validates what it could parse. The error is only for I/O.
func CheckMapFile(path string) (*Map, []Violation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	if bytes.IndexByte(head[:n], 0) >= 0 {
		return nil, nil, fmt.Errorf("%s: not a method map (binary data)", path)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	var vs []Violation
	m, err := parseMap(f, path, func(line int, err error) bool {
		vs = append(vs, violation(KindSyntax, path, line, "%v", err))
		return true
	})
	if err != nil {
		return nil, nil, err
	}
	// A map with a few bad lines is a map to report on; a file most of
	// whose lines are not map lines is something else.
	if len(vs) > len(m.Entries) {
		return nil, nil, fmt.Errorf("%s: not a method map (%d of %d lines are not \"id,access,class method desc\"; %s)",
			path, len(vs), len(vs)+len(m.Entries), vs[0].Msg)
	}
	return m, append(vs, ValidateMap(m, path)...), nil
}

// ValidateMap checks a parsed map: ids in 1..MaxID (or the dispatch id),
// no id and no method twice, lines sorted by id, the dispatch entry present
// and exact. name is used in messages.
func ValidateMap(m *Map, name string) []Violation {
	return validateEntries(m.Entries, name, validateOptions{maxID: MaxID, requireDispatch: true, requireSorted: true})
}

type validateOptions struct {
	maxID           int
	requireDispatch bool
	requireSorted   bool
}

func validateEntries(entries []Entry, name string, o validateOptions) []Violation {
	vs, _ := validateIndexed(entries, name, o)
	return vs
}

// validateIndexed is validateEntries that also returns the index it built
// of the entries by the key of their map line (values: entry index; the
// first entry of a duplicated key).
func validateIndexed(entries []Entry, name string, o validateOptions) ([]Violation, *keyIndex) {
	return validateAt(len(entries), func(i int) Entry { return entries[i] }, name, o)
}

// validateAt is validateIndexed over n entries that at gives by index:
// a map written from another form than a slice of entries.
func validateAt(n int, at func(i int) Entry, name string, o validateOptions) ([]Violation, *keyIndex) {
	var vs []Violation
	// Index maps (not copies of the 80-byte entries): a map of a large app
	// has hundreds of thousands of lines.
	// By id: a slice over the ids in range (they are small and dense), a
	// map for the rest; by key: a hashed index (see keyIndex).
	maxInRange := 0
	for i := range n {
		if e := at(i); e.ID >= 1 && e.ID <= o.maxID {
			maxInRange = max(maxInRange, e.ID)
		}
	}
	idAt := make([]int32, maxInRange+1) // entry index + 1; 0: none
	otherIDs := map[int]int32{}
	// The index reads each key from its entry when it needs it: a copy of
	// the keys would be 48 bytes a line, tens of MB for a large app.
	byKey := newKeyIndex(n, func(i int32) MethodKey { e := at(int(i)); return lineKey(e.Key, e.Access) })
	prevID, dispatchSeen := 0, false
	for i := range n {
		e := at(i)
		inRange := true
		switch {
		case e.ID == DispatchID:
			dispatchSeen = true
			if e.Key != DispatchKey || e.Access != DispatchAccess {
				vs = append(vs, violation(KindDispatch, name, e.Line, "id %d is reserved for %q, found %q",
					DispatchID, dispatchLine(), entryText(e)))
			}
		case e.ID < 1 || e.ID > o.maxID:
			inRange = false
			vs = append(vs, violation(KindIDOutOfRange, name, e.Line, "id %d of %s is out of range 1..%d (and %d for the dispatch entry)",
				e.ID, e.Key, o.maxID, DispatchID))
		}
		fi, dup := int32(0), false
		if e.ID >= 1 && e.ID <= o.maxID {
			fi, dup = idAt[e.ID]-1, idAt[e.ID] != 0
			if !dup {
				idAt[e.ID] = int32(i) + 1
			}
		} else if fi, dup = otherIDs[e.ID]; !dup {
			otherIDs[e.ID] = int32(i)
		}
		if dup {
			first := at(int(fi))
			vs = append(vs, violation(KindDuplicateID, name, e.Line, "duplicate id %d: %s, already used by %s%s",
				e.ID, e.Key, first.Key, onLine(first)))
		}
		k := lineKey(e.Key, e.Access)
		if fi, dup := byKey.get(k); dup {
			first := at(int(fi))
			vs = append(vs, violation(KindDuplicateMethod, name, e.Line, "duplicate method %s: id %d, already id %d%s",
				k, e.ID, first.ID, onLine(first)))
		} else {
			byKey.put(k, int32(i))
		}
		// Out-of-range ids are reported once above, not again as misplaced.
		if o.requireSorted && inRange {
			if e.ID < prevID {
				vs = append(vs, violation(KindUnsorted, name, e.Line, "id %d comes after id %d: lines must be sorted by id", e.ID, prevID))
			}
			prevID = max(prevID, e.ID)
		}
	}
	if o.requireDispatch && !dispatchSeen {
		vs = append(vs, violation(KindDispatch, name, 0, "missing the dispatch entry %q", dispatchLine()))
	}
	return vs, byKey
}

func dispatchLine() string { return entryText(DispatchEntry()) }

func entryText(e Entry) string {
	return fmt.Sprintf("%d,%d,%s", e.ID, e.Access, mapText(e.Key, e.Access))
}

// location is "file:line" of an entry, or just the file for in-memory maps.
func location(name string, e Entry) string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", name, e.Line)
	}
	return name
}

func onLine(e Entry) string {
	if e.Line > 0 {
		return fmt.Sprintf(" (line %d)", e.Line)
	}
	return ""
}

// CompareWithBase checks that cur kept the promises made to base: every
// method of the base is still there with the same id, no base id names a
// different method now, and new methods got ids above everything the base
// used. The dispatch entry is left to ValidateMap.
func CompareWithBase(cur *Map, curName string, base *Map, baseName string) []Violation {
	curByKey, curByID := indexEntries(cur)
	baseByKey, baseByID := indexEntries(base)
	baseHigh := base.HighWater
	for id := range baseByID {
		baseHigh = max(baseHigh, id)
	}

	var vs []Violation
	for _, b := range sortedByID(baseByID) {
		k := lineKey(b.Key, b.Access)
		c, ok := curByKey[k]
		switch {
		case !ok:
			vs = append(vs, violation(KindRemoved, curName, 0, "method %s is missing (id %d at %s)",
				k, b.ID, location(baseName, b)))
		case c.ID != b.ID:
			vs = append(vs, violation(KindIDChanged, curName, c.Line, "method %s has id %d, but id %d at %s",
				k, c.ID, b.ID, location(baseName, b)))
		}
		if c, ok := curByID[b.ID]; ok && lineKey(c.Key, c.Access) != k {
			vs = append(vs, violation(KindIDReused, curName, c.Line, "id %d names %s, but %s at %s",
				b.ID, lineKey(c.Key, c.Access), k, location(baseName, b)))
		}
	}
	for _, c := range sortedByID(curByID) {
		k := lineKey(c.Key, c.Access)
		if _, old := baseByKey[k]; old {
			continue
		}
		if _, reused := baseByID[c.ID]; reused {
			continue // reported as id-reused above
		}
		if c.ID >= 1 && c.ID <= baseHigh { // ids below 1 are ValidateMap's business
			vs = append(vs, violation(KindNewIDTooLow, curName, c.Line, "new method %s got id %d, not above %d, the highest id in %s",
				k, c.ID, baseHigh, baseName))
		}
	}
	return vs
}

// indexEntries indexes the first entry of each key and id, dispatch excluded.
func indexEntries(m *Map) (map[MethodKey]Entry, map[int]Entry) {
	byKey := make(map[MethodKey]Entry, len(m.Entries))
	byID := make(map[int]Entry, len(m.Entries))
	for _, e := range m.Entries {
		if e.ID == DispatchID {
			continue
		}
		if _, dup := byID[e.ID]; !dup {
			byID[e.ID] = e
		}
		k := lineKey(e.Key, e.Access)
		if _, dup := byKey[k]; !dup {
			byKey[k] = e
		}
	}
	return byKey, byID
}

func sortedByID(byID map[int]Entry) []Entry {
	es := make([]Entry, 0, len(byID))
	for _, e := range byID {
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b Entry) int { return a.ID - b.ID })
	return es
}
