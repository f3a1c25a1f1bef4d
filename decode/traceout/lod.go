package traceout

import (
	"cmp"
	"math"
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
// levels fill from the coarsest; when their packed slices pass the
// budget, the finest level goes, and detail stops at the finest one kept.
//
// A level's slices are packed as they come, a list per thread and depth
// in chunks of lodChunk slices; a full chunk goes to a spill file, so
// that decode holds little more than the chunks still filling (the page
// is written from the spill at the end).
const (
	lodLevels = 41
	lodTop    = lodLevels - 1
	// lodDepth: the page draws 40 rows a thread (viewer.js MAX_ROWS).
	lodDepth = 40
	// lodChunk is how many slices of a list unpack together: a window's
	// slices are found by the chunks' starts and ends, and the page
	// unpacks only the chunks it shows.
	lodChunk = 1024
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

// lodMerged flags a merged slice, as view's FlagMerged.
const lodMerged = 4

// lodList is one thread's slices at one depth and level, packed: the
// chunks spilled, the chunk still filling, and a merged slice still
// taking calls (packed when the next slice of the list comes, or at the
// end).
type lodList struct {
	chunks   []lodChunkRef
	buf      []byte // the chunk filling
	inChunk  int    // its slices
	first    int64  // its first slice's start
	last     int64  // its last slice's start (the next start's delta is from it)
	reach    int64  // the latest end of the list's slices so far
	n        int
	open     lodSlice // the merged slice taking calls
	isOpen   bool
	pixelEnd int64 // the open slice takes a call that starts before this
}

// lodChunkRef is a chunk of a list: where the spill holds it, its first
// slice's start and the list's reach up to its last slice.
type lodChunkRef struct {
	spillRef
	first, reach int64
}

// lodBuilder takes a trace's calls, each thread's in the order they
// start (callers first), and keeps their levels of detail within budget
// bytes.
type lodBuilder struct {
	levels int // levels kept: 0..levels-1
	// budget is the bytes the levels' slices may take packed; size and
	// total are what each level's and all of them take.
	budget  int
	size    [lodLevels]int
	total   int
	threads []*lodThread
	tree    CallTree
	spill   *spill
}

// lodThread is one thread's lists by level and depth, and the state of
// its calls still open.
type lodThread struct {
	lists [][]*lodList // [level][depth]
	// from[d] is the first level at which the callees of the open call at
	// depth d are drawn: where it and every call it is inside are whole
	// (at a coarser level one of them is merged, and stands for them).
	from     []int
	nodes    []int32 // the tree nodes of the open calls, by depth
	sections []lodSection
	// sectionLists are the sections by depth, packed (finish): lists of
	// level 0 beside the calls'.
	sectionLists []*lodList
	calls        int64
	maxDepth     int
}

func newLODBuilder(budget int, spill *spill) *lodBuilder {
	return &lodBuilder{levels: lodLevels, budget: budget, spill: spill}
}

func (b *lodBuilder) thread() *lodThread {
	t := &lodThread{lists: make([][]*lodList, lodLevels)}
	b.threads = append(b.threads, t)
	return t
}

// list is t's list of level j and depth, made when new.
func (t *lodThread) list(j, depth int) *lodList {
	for len(t.lists[j]) <= depth {
		t.lists[j] = append(t.lists[j], nil)
	}
	l := t.lists[j][depth]
	if l == nil {
		l = &lodList{reach: math.MinInt64}
		t.lists[j][depth] = l
	}
	return l
}

// call takes a call of t from start to end at depth (the calls open on
// its thread when it started).
func (b *lodBuilder) call(t *lodThread, name int32, start, end int64, depth int, flags uint8) {
	t.calls++
	parent := int32(0)
	if depth > 0 && depth <= len(t.nodes) {
		parent = t.nodes[depth-1]
	}
	node := b.tree.Node(parent, name)
	b.tree.Add(node, parent, end-start)
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
		b.add(at, t.list(at, depth), lodSlice{start: start, dur: end - start, name: name, flags: flags})
	}
	for j := from; j < min(w, b.levels); j++ {
		b.merge(j, t.list(j, depth), name, start, end)
	}
}

// merge takes a call narrower than level j's pixel into the list's open
// merged slice, or opens one.
func (b *lodBuilder) merge(j int, l *lodList, name int32, start, end int64) {
	if l.isOpen && start < l.pixelEnd {
		l.open.dur = max(l.open.dur, end-l.open.start)
		l.pixelEnd = max(l.pixelEnd, end)
		return
	}
	b.add(j, l, lodSlice{start: start, dur: end - start, name: name, flags: lodMerged})
	if j < b.levels {
		l.isOpen, l.pixelEnd = true, max(start+lodPx(j), end)
	}
}

// add appends a slice to level j's list l: the open merged slice before
// it is packed, and a merged one stays open. Past the budget, the finest
// levels go.
func (b *lodBuilder) add(j int, l *lodList, s lodSlice) {
	if l.isOpen {
		l.isOpen = false
		b.pack(j, l, l.open)
	}
	if s.flags&lodMerged != 0 {
		l.open, l.isOpen = s, true
	} else {
		b.pack(j, l, s)
	}
	for b.total > b.budget && b.levels > 1 {
		b.drop()
	}
}

// pack appends s to l's chunk, and spills the chunk when it is full.
func (b *lodBuilder) pack(j int, l *lodList, s lodSlice) {
	if l.inChunk == 0 {
		l.first, l.last = s.start, 0 // a chunk's starts begin anew: it unpacks alone
	}
	size := len(l.buf)
	l.buf = packSlice(l.buf, int(s.name), s.start-l.last, s.dur, 0, uint64(s.flags)) // depth 0: the fourth number is the flags
	l.last = s.start
	l.reach = max(l.reach, s.start+s.dur)
	l.inChunk++
	l.n++
	b.size[j] += len(l.buf) - size
	b.total += len(l.buf) - size
	if l.inChunk == lodChunk {
		b.spillChunk(l)
	}
}

// spillChunk writes l's full chunk to the spill file.
func (b *lodBuilder) spillChunk(l *lodList) {
	l.chunks = append(l.chunks, lodChunkRef{spillRef: b.spill.add(l.buf), first: l.first, reach: l.reach})
	l.buf, l.inChunk = l.buf[:0], 0
}

// drop lets the finest level kept go.
func (b *lodBuilder) drop() {
	b.levels--
	b.total -= b.size[b.levels]
	b.size[b.levels] = 0
	for _, t := range b.threads {
		t.lists[b.levels] = nil
	}
}

// slice takes a slice that is not a call in start order (a section begun
// and ended, whose end came after its callees'): kept whole at the
// coarsest level, in a list of its own, sorted at the end.
func (b *lodBuilder) slice(t *lodThread, name int32, start, dur int64, depth int, flags uint8) {
	if depth >= lodDepth {
		return
	}
	t.calls++
	t.maxDepth = max(t.maxDepth, depth)
	t.sections = append(t.sections, lodSection{lodSlice{start: start, dur: dur, name: name, flags: flags}, depth})
}

// lodSection is a section and its depth.
type lodSection struct {
	lodSlice
	depth int
}

// finish packs what is still open, and sorts the sections into lists of
// level 0.
func (b *lodBuilder) finish() {
	for _, t := range b.threads {
		slices.SortStableFunc(t.sections, func(x, y lodSection) int { return cmp.Compare(x.start, y.start) })
		t.sectionLists = nil
		for _, sec := range t.sections {
			for len(t.sectionLists) <= sec.depth {
				t.sectionLists = append(t.sectionLists, &lodList{reach: math.MinInt64})
			}
			b.pack(0, t.sectionLists[sec.depth], sec.lodSlice)
		}
		for j := range b.levels {
			for _, l := range t.lists[j] {
				if l != nil && l.isOpen {
					l.isOpen = false
					b.pack(j, l, l.open)
				}
			}
		}
	}
	for b.total > b.budget && b.levels > 1 {
		b.drop()
	}
}

// chunk gives the bytes of l's chunk c (the last may still be in l).
func (b *lodBuilder) chunk(l *lodList, c int, buf []byte) ([]byte, error) {
	if c == len(l.chunks) {
		return l.buf, nil
	}
	return b.spill.read(l.chunks[c].spillRef, buf)
}
