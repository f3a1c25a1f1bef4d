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
	// skipped are the planned methods that could not be rewritten: in the
	// planned map, not in the method map.
	skipped map[MethodKey]string
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
// one), with the least access of its methods. The lines are laid out in
// id order at once: rank[id] is first a mark of the ids in use, then 1 +
// the line's index.
func (p *pipeline) tracedList() *tracedList {
	rank := make([]int32, p.highWater+1)
	p.eachTraced(func(_ *classInfo, m *methodInfo) { rank[m.id] = 1 })
	n := int32(0)
	for id, r := range rank {
		if r != 0 {
			n++
			rank[id] = n
		}
	}
	refs := make([]tracedRef, n)
	p.eachMethod(func(ci *classInfo, j int) {
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
	return &tracedList{refs: refs, highWater: p.highWater, skipped: p.skipped}
}

// lines counts the method map's lines but the dispatch entry.
func (t *tracedList) lines() int {
	if len(t.skipped) == 0 {
		return len(t.refs)
	}
	n := 0
	for i := range t.refs {
		if !t.isSkipped(i) {
			n++
		}
	}
	return n
}

func (t *tracedList) isSkipped(i int) bool {
	if len(t.skipped) == 0 {
		return false
	}
	r := &t.refs[i]
	_, bad := t.skipped[r.ci.key(&r.ci.methods[r.m])]
	return bad
}

// methodHighWater is the method map's high-water mark: the planned one,
// raised by the ids of the methods left out, which stay retired.
func (t *tracedList) methodHighWater() int {
	hw := t.highWater
	for i := range t.refs {
		if t.isSkipped(i) {
			hw = max(hw, int(t.refs[i].ci.methods[t.refs[i].m].id))
		}
	}
	return hw
}

// writePlanned writes the planned map; writeMethodMap the method map (the
// planned one less the skipped methods).
func (t *tracedList) writePlanned(w io.Writer) error {
	return methodmap.EncodeEntriesTo(w, t.highWater, len(t.refs)+1, t.at(nil))
}

func (t *tracedList) writeMethodMap(w io.Writer) error {
	if len(t.skipped) == 0 {
		return t.writePlanned(w)
	}
	var kept []int32
	for i := range t.refs {
		if !t.isSkipped(i) {
			kept = append(kept, int32(i))
		}
	}
	return methodmap.EncodeEntriesTo(w, t.methodHighWater(), len(kept)+1, t.at(kept))
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
func (t *tracedList) plannedMap() *methodmap.Map {
	entries := make([]methodmap.Entry, 0, len(t.refs)+1)
	for i := range t.refs {
		entries = append(entries, t.refs[i].entry())
	}
	return &methodmap.Map{HighWater: t.highWater, Entries: append(entries, methodmap.DispatchEntry())}
}

func (t *tracedList) methodMap() *methodmap.Map {
	if len(t.skipped) == 0 {
		return t.plannedMap()
	}
	entries := make([]methodmap.Entry, 0, len(t.refs)+1)
	for i := range t.refs {
		if !t.isSkipped(i) {
			entries = append(entries, t.refs[i].entry())
		}
	}
	return &methodmap.Map{HighWater: t.methodHighWater(), Entries: append(entries, methodmap.DispatchEntry())}
}
