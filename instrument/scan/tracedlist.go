package scan

import (
	"io"

	"github.com/tracebeat/tracebeat/methodmap"
)

// TracedList is the planned map as the run's scans hold it: a method per
// id, in id order, with the access its line shows. A line takes 16 bytes
// here and 72 as a methodmap.Entry; a large build has a million lines,
// which are written from here (and made entries only when a caller asks
// for the map itself).
type TracedList struct {
	refs      []tracedRef
	highWater int
	// Kept are the indexes of the method map's lines when some planned
	// methods could not be rewritten (they stay in the planned map only,
	// their ids retired through methodHighWater); nil when none.
	Kept            []int32
	methodHighWater int
}

// tracedRef is one line: method m of class ci, with access the least of
// the accesses of the entries that share its id.
type tracedRef struct {
	ci     *Class
	m      uint32
	access uint16
}

func (r *tracedRef) entry() methodmap.Entry {
	m := &r.ci.Methods[r.m]
	return methodmap.Entry{ID: int(m.ID), Access: r.access, Key: r.ci.Key(m)}
}

// TracedList lists the traced methods of the scans by id: one line per
// id (methods with one key share it; a class found in two inputs gives
// one), with the least access of its methods; highWater is the plan's,
// skipped the planned methods that could not be rewritten. The lines are
// laid out in id order at once: rank[id] is first a mark of the ids in
// use, then 1 + the line's index.
func (s Set) TracedList(highWater int, skipped map[methodmap.MethodKey]string) *TracedList {
	rank := make([]int32, highWater+1)
	s.eachTraced(func(_ *Class, m *Method) { rank[m.ID] = 1 })
	n := int32(0)
	for id, r := range rank {
		if r != 0 {
			n++
			rank[id] = n
		}
	}
	refs := make([]tracedRef, n)
	s.eachMethod(func(ci *Class, j int) {
		m := &ci.Methods[j]
		if !m.Trace {
			return
		}
		if r := &refs[rank[m.ID]-1]; r.ci == nil {
			*r = tracedRef{ci: ci, m: uint32(j), access: m.Access}
		} else {
			r.access = min(r.access, m.Access)
		}
	})
	t := &TracedList{refs: refs, highWater: highWater, methodHighWater: highWater}
	if len(skipped) > 0 {
		t.Kept = make([]int32, 0, len(refs))
		for i := range refs {
			r := &refs[i]
			m := &r.ci.Methods[r.m]
			if _, bad := skipped[r.ci.Key(m)]; bad {
				t.methodHighWater = max(t.methodHighWater, int(m.ID))
			} else {
				t.Kept = append(t.Kept, int32(i))
			}
		}
	}
	return t
}

// Lines counts the method map's lines but the dispatch entry.
func (t *TracedList) Lines() int {
	if t.Kept != nil {
		return len(t.Kept)
	}
	return len(t.refs)
}

// EachSkipped calls fn with the planned map's lines that the method map
// leaves out, in id order.
func (t *TracedList) EachSkipped(fn func(methodmap.Entry)) {
	if t.Kept == nil {
		return
	}
	k := 0
	for i := range t.refs {
		if k < len(t.Kept) && int(t.Kept[k]) == i {
			k++
			continue
		}
		fn(t.refs[i].entry())
	}
}

// WritePlanned writes the planned map; WriteMethodMap the method map.
func (t *TracedList) WritePlanned(w io.Writer) error {
	return methodmap.EncodeEntriesTo(w, t.highWater, len(t.refs)+1, t.at(nil))
}

func (t *TracedList) WriteMethodMap(w io.Writer) error {
	return methodmap.EncodeEntriesTo(w, t.methodHighWater, t.Lines()+1, t.at(t.Kept))
}

// at gives the lines of refs (those at the indexes in which, when not
// nil), then the dispatch entry.
func (t *TracedList) at(which []int32) func(i int) methodmap.Entry {
	n := len(t.refs)
	if which != nil {
		n = len(which)
	}
	return func(i int) methodmap.Entry {
		switch {
		case i == n:
			return methodmap.DispatchEntry()
		case which != nil:
			return t.refs[which[i]].entry()
		}
		return t.refs[i].entry()
	}
}

// PlannedMap and MethodMap make the maps as entries.
func (t *TracedList) PlannedMap() *methodmap.Map { return t.entries(nil, len(t.refs), t.highWater) }

func (t *TracedList) MethodMap() *methodmap.Map {
	return t.entries(t.Kept, t.Lines(), t.methodHighWater)
}

func (t *TracedList) entries(which []int32, n, highWater int) *methodmap.Map {
	at := t.at(which)
	entries := make([]methodmap.Entry, n+1)
	for i := range entries {
		entries[i] = at(i)
	}
	return &methodmap.Map{HighWater: highWater, Entries: entries}
}
