package traceout

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Levels of detail: the page of a trace too large to hold every call.
//
// Level j draws at lodPx(j) nanoseconds a pixel, from 2^40 ns (18 minutes)
// at level 0 down to 1 ns at level 40. At a level, a call at least a
// pixel wide is a slice of its own ("whole"); the calls narrower than a
// pixel that start within a pixel of each other at one depth become one
// merged slice spanning them (their callees inside it), as tracebeat
// view's windows merge them. A whole call stays whole at every finer
// level, so it is kept once, at the coarsest level where it is whole and
// drawn (its callers whole there too); the page draws level k from the
// whole slices of levels 0..k and the merged slices of level k. The
// levels fill from the coarsest; when the slices pass the budget, the
// finest level goes, and detail stops at the finest one kept.
const (
	lodLevels = 41
	lodTop    = lodLevels - 1
	// lodDepth: the page draws 40 rows a thread (viewer.js MAX_ROWS).
	lodDepth = 40
)

// lodPx is level j's nanoseconds a pixel.
func lodPx(j int) int64 { return 1 << (lodTop - j) }

// lodWhole is the coarsest level at which a call of dur ns is at least a
// pixel wide (lodLevels: none, a call of no time).
func lodWhole(dur int64) int {
	if dur <= 0 {
		return lodLevels
	}
	return max(0, lodLevels-bits.Len64(uint64(dur)))
}

type lodSlice struct {
	start, dur int64
	name       int32
	flags      uint8
}

// lodRun is a depth's merged slice still taking calls at a level: its
// index in the list (-1: none) and the end of the pixel it started in, or
// of its last call.
type lodRun struct {
	at       int
	pixelEnd int64
}

// lodBuilder takes a trace's calls, each thread's in the order they
// start (callers first), and keeps their levels of detail within budget
// slices.
type lodBuilder struct {
	levels int // levels kept: 0..levels-1
	// budget is the bytes the levels' slices may take packed; size and
	// total are what each level's and all of them take.
	budget  int
	size    [lodLevels]int
	total   int
	threads []*lodThread
	tree    lodTree
}

// lodThread is one thread's slices by level and depth, and the state of
// its calls still open.
type lodThread struct {
	lists [][][]lodSlice // [level][depth], sorted by start within one
	runs  [][]lodRun     // [level][depth]
	// from[d] is the first level at which the callees of the open call at
	// depth d are drawn: where it and every call it is inside are whole
	// (at a coarser level one of them is merged, and stands for them).
	from     []int
	nodes    []int32 // the tree nodes of the open calls, by depth
	calls    int64
	maxDepth int
	unsorted bool
}

func newLODBuilder(budget int) *lodBuilder {
	return &lodBuilder{levels: lodLevels, budget: budget}
}

func (b *lodBuilder) thread() *lodThread {
	t := &lodThread{lists: make([][][]lodSlice, lodLevels), runs: make([][]lodRun, lodLevels)}
	b.threads = append(b.threads, t)
	return t
}

// call takes a call of t from start to end at depth (the calls open on
// its thread when it started).
func (b *lodBuilder) call(t *lodThread, name int32, start, end int64, depth int, flags uint8) {
	t.calls++
	parent := int32(0)
	if depth > 0 && depth <= len(t.nodes) {
		parent = t.nodes[depth-1]
	}
	node := b.tree.node(parent, name)
	b.tree.add(node, parent, end-start)
	t.nodes = append(t.nodes[:min(depth, len(t.nodes))], node)
	if depth >= lodDepth {
		return
	}
	t.maxDepth = max(t.maxDepth, depth)
	w := lodWhole(end - start)
	from := 0 // the first level it is drawn at
	if depth > 0 && depth <= len(t.from) {
		from = t.from[depth-1]
	}
	t.from = append(t.from[:min(depth, len(t.from))], max(from, w))
	if at := max(from, w); at < b.levels {
		b.add(t, at, depth, lodSlice{start: start, dur: end - start, name: name, flags: flags})
	}
	for j := from; j < min(w, b.levels); j++ {
		t.merge(b, j, depth, name, start, end)
	}
}

// merge takes a call narrower than level j's pixel into the merged slice
// of its depth there, or starts one.
func (t *lodThread) merge(b *lodBuilder, j, depth int, name int32, start, end int64) {
	runs := t.runs[j]
	for len(runs) <= depth {
		runs = append(runs, lodRun{at: -1})
	}
	t.runs[j] = runs
	r := &runs[depth]
	if r.at >= 0 && start < r.pixelEnd {
		s := &t.lists[j][depth][r.at]
		s.dur = max(s.dur, end-s.start)
		r.pixelEnd = max(r.pixelEnd, end)
		return
	}
	r.pixelEnd = max(start+lodPx(j), end)
	r.at = b.add(t, j, depth, lodSlice{start: start, dur: end - start, name: name, flags: lodMerged})
}

// lodMerged flags a merged slice, as view's FlagMerged.
const lodMerged = 4

// add appends a slice to level j's list of its depth, and drops the
// finest levels while the slices are over budget. It returns the slice's
// index (-1 when its level went).
func (b *lodBuilder) add(t *lodThread, j, depth int, s lodSlice) int {
	lists := t.lists[j]
	for len(lists) <= depth {
		lists = append(lists, nil)
	}
	n := lodSize(lists[depth], s)
	lists[depth] = append(lists[depth], s)
	t.lists[j] = lists
	b.size[j] += n
	b.total += n
	for b.total > b.budget && b.levels > 1 {
		b.drop()
	}
	if j >= b.levels {
		return -1
	}
	return len(lists[depth]) - 1
}

// lodSize is how many bytes s takes packed after list (lodwrite.go): a
// merged slice's duration may grow as calls join it, by a byte or two.
func lodSize(list []lodSlice, s lodSlice) int {
	var buf [3 * binary.MaxVarintLen64]byte
	prev := int64(0)
	if len(list) > 0 {
		prev = list[len(list)-1].start
	}
	n := len(binary.AppendUvarint(binary.AppendVarint(binary.AppendUvarint(buf[:0], uint64(s.name)), s.start-prev), uint64(s.dur))) + 1
	if s.flags&lodMerged != 0 {
		n += 2
	}
	return n
}

// drop lets the finest level kept go.
func (b *lodBuilder) drop() {
	b.levels--
	b.total -= b.size[b.levels]
	b.size[b.levels] = 0
	for _, t := range b.threads {
		t.lists[b.levels], t.runs[b.levels] = nil, nil
	}
}

// slice takes a slice that is not a call in start order (a section begun
// and ended, whose end came after its callees): kept whole at the coarsest
// level, sorted at the end.
func (b *lodBuilder) slice(t *lodThread, name int32, start, dur int64, depth int, flags uint8) {
	if depth >= lodDepth {
		return
	}
	t.calls++
	t.maxDepth = max(t.maxDepth, depth)
	t.unsorted = true
	b.add(t, 0, depth, lodSlice{start: start, dur: dur, name: name, flags: flags})
}

// finish sorts what came out of order.
func (b *lodBuilder) finish() {
	for _, t := range b.threads {
		if !t.unsorted {
			continue
		}
		for _, level := range t.lists {
			for _, list := range level {
				slices.SortStableFunc(list, func(x, y lodSlice) int { return cmpInt64(x.start, y.start) })
			}
		}
	}
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// lodTree is the call tree of every call, as view's Index keeps it: 8
// numbers a node (htmlview.Meta's Tree): the parent's number (0: the
// root; nodes are numbered from 1 in the order they are made), the
// name's index, the total, self (ns) and calls, and three 0s.
type lodTree struct {
	nodes map[[2]int32]int32
	tree  []int64
}

// node is name's node under parent, made when new.
func (x *lodTree) node(parent, name int32) int32 {
	if x.nodes == nil {
		x.nodes = map[[2]int32]int32{}
	}
	k := [2]int32{parent, name}
	if n, ok := x.nodes[k]; ok {
		return n
	}
	x.tree = append(x.tree, int64(parent), int64(name), 0, 0, 0, 0, 0, 0)
	n := int32(len(x.tree) / 8)
	x.nodes[k] = n
	return n
}

// add counts a call of dur ns at node under parent: its total and calls,
// its self less from its parent's.
func (x *lodTree) add(node, parent int32, dur int64) {
	x.tree[8*int(node-1)+2] += dur
	x.tree[8*int(node-1)+3] += dur
	x.tree[8*int(node-1)+4]++
	if parent > 0 {
		x.tree[8*int(parent-1)+3] -= dur
	}
}
