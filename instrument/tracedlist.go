package instrument

import (
	"io"

	"github.com/tracebeat/tracebeat/methodmap"
)

// tracedList is the planned map as the run's scans hold it: a method per
// id, in id order, with the access its line shows. A line takes 16 bytes
// here and 72 as a methodmap.Entry; a large build has a million lines,
// which are written from here (and made entries only when a caller asks
// for the map itself).
type tracedList struct {
	refs      []tracedRef
	highWater int
	// kept are the indexes of the method map's lines when some planned
	// methods could not be rewritten (they stay in the planned map only,
	// their ids retired through methodHighWater); nil when none.
	kept            []int32
	methodHighWater int
}

// tracedRef is one line: method m of class ci, with access the least of
// the accesses of the entries that share its id.
type tracedRef struct {
	ci     *classInfo
	m      uint32
	access uint16
}

func (r *tracedRef) entry() methodmap.Entry {
	m := &r.ci.methods[r.m]
	return methodmap.Entry{ID: int(m.id), Access: r.access, Key: r.ci.key(m)}
}

// tracedList lists the traced methods of the scans by id: one line per
// id (methods with one key share it; a class found in two inputs gives
// one), with the least access of its methods; highWater is the plan's,
// skipped the planned methods that could not be rewritten. The lines are
// laid out in id order at once: rank[id] is first a mark of the ids in
// use, then 1 + the line's index.
func (s scanSet) tracedList(highWater int, skipped map[methodmap.MethodKey]string) *tracedList {
	rank := make([]int32, highWater+1)
	s.eachTraced(func(_ *classInfo, m *methodInfo) { rank[m.id] = 1 })
	n := int32(0)
	for id, r := range rank {
		if r != 0 {
			n++
			rank[id] = n
		}
	}
	refs := make([]tracedRef, n)
	s.eachMethod(func(ci *classInfo, j int) {
		m := &ci.methods[j]
		if !m.trace {
			return
		}
		if r := &refs[rank[m.id]-1]; r.ci == nil {
			*r = tracedRef{ci: ci, m: uint32(j), access: m.access}
		} else {
			r.access = min(r.access, m.access)
		}
	})
	t := &tracedList{refs: refs, highWater: highWater, methodHighWater: highWater}
	if len(skipped) > 0 {
		t.kept = make([]int32, 0, len(refs))
		for i := range refs {
			r := &refs[i]
			m := &r.ci.methods[r.m]
			if _, bad := skipped[r.ci.key(m)]; bad {
				t.methodHighWater = max(t.methodHighWater, int(m.id))
			} else {
				t.kept = append(t.kept, int32(i))
			}
		}
	}
	return t
}

// lines counts the method map's lines but the dispatch entry.
func (t *tracedList) lines() int {
	if t.kept != nil {
		return len(t.kept)
	}
	return len(t.refs)
}

// eachSkipped calls fn with the planned map's lines that the method map
// leaves out, in id order.
func (t *tracedList) eachSkipped(fn func(methodmap.Entry)) {
	if t.kept == nil {
		return
	}
	k := 0
	for i := range t.refs {
		if k < len(t.kept) && int(t.kept[k]) == i {
			k++
			continue
		}
		fn(t.refs[i].entry())
	}
}

// writePlanned writes the planned map; writeMethodMap the method map.
func (t *tracedList) writePlanned(w io.Writer) error {
	return methodmap.EncodeEntriesTo(w, t.highWater, len(t.refs)+1, t.at(nil))
}

func (t *tracedList) writeMethodMap(w io.Writer) error {
	return methodmap.EncodeEntriesTo(w, t.methodHighWater, t.lines()+1, t.at(t.kept))
}

// at gives the lines of refs (those at the indexes in which, when not
// nil), then the dispatch entry.
func (t *tracedList) at(which []int32) func(i int) methodmap.Entry {
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

// plannedMap and methodMap make the maps as entries.
func (t *tracedList) plannedMap() *methodmap.Map { return t.entries(nil, len(t.refs), t.highWater) }

func (t *tracedList) methodMap() *methodmap.Map {
	return t.entries(t.kept, t.lines(), t.methodHighWater)
}

func (t *tracedList) entries(which []int32, n, highWater int) *methodmap.Map {
	at := t.at(which)
	entries := make([]methodmap.Entry, n+1)
	for i := range entries {
		entries[i] = at(i)
	}
	return &methodmap.Map{HighWater: highWater, Entries: entries}
}
