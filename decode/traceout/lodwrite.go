package traceout

import (
	"math"

	"github.com/tracebeat/tracebeat/decode/htmlview"
)

// lodBlockBytes is about how many bytes a script block of levels holds (a
// quarter MiB): the page decodes a block's base64 when it first shows one
// of its chunks.
var lodBlockBytes = 1 << 18

// writeLevels writes the levels of detail into script blocks, and says in
// meta what they hold: the threads with their calls, the span, the call
// tree.
func (h *htmlWriter) writeLevels(meta *htmlview.Meta) error {
	b := h.lod
	b.finish()
	lod := &htmlview.LOD{DetailNs: lodPx(b.levels - 1), Limit: h.limit, Chunk: lodChunk}
	type shown struct {
		index int
		t     *lodThread
	}
	var threads []shown
	meta.TMin, meta.TMax = math.MaxInt64, math.MinInt64
	for _, t := range h.order {
		lt := t.lod
		if lt == nil || lt.calls == 0 {
			continue
		}
		threads = append(threads, shown{len(meta.Threads), lt})
		meta.Threads = append(meta.Threads, htmlview.Thread{Pid: t.pid, Tid: t.tid, Name: t.name, Slices: int(min(lt.calls, math.MaxInt32)), MaxDepth: lt.maxDepth, Blocks: []int{}})
		lod.Calls += lt.calls
		for j := range b.levels {
			for _, l := range lt.lists[j] {
				if l != nil && l.n > 0 {
					meta.TMax = max(meta.TMax, l.reach)
					meta.TMin = min(meta.TMin, l.firstStart())
				}
			}
		}
		for _, l := range lt.sectionLists {
			if l.n > 0 {
				meta.TMax = max(meta.TMax, l.reach)
				meta.TMin = min(meta.TMin, l.firstStart())
			}
		}
	}
	if meta.TMin > meta.TMax {
		meta.TMin, meta.TMax = 0, 1
	}
	var packed, buf []byte
	flush := func() {
		if len(packed) > 0 {
			h.block(packed)
			packed = packed[:0]
		}
	}
	for j := range b.levels {
		level := htmlview.LODLevel{PxNs: lodPx(j), Lists: []int64{}}
		for _, th := range threads {
			lists := th.t.lists[j]
			if j == 0 {
				lists = append(lists[:len(lists):len(lists)], th.t.sectionLists...)
			}
			for i, l := range lists {
				if l == nil || l.n == 0 {
					continue
				}
				depth := i
				if i >= len(th.t.lists[j]) {
					depth = i - len(th.t.lists[j]) // a section list
				}
				chunks := len(l.chunks)
				if l.inChunk > 0 {
					chunks++
				}
				level.Lists = append(level.Lists, int64(th.index), int64(depth), int64(l.n), int64(chunks))
				for c := range chunks {
					var err error
					if buf, err = b.chunk(l, c, buf); err != nil {
						return err
					}
					if len(packed) >= lodBlockBytes {
						flush()
					}
					first, reach := l.first, l.reach
					if c < len(l.chunks) {
						first, reach = l.chunks[c].first, l.chunks[c].reach
					}
					level.Lists = append(level.Lists, int64(h.blocks), int64(len(packed)), first, reach)
					packed = append(packed, buf...)
				}
			}
		}
		lod.Levels = append(lod.Levels, level)
	}
	flush()
	meta.Tree = b.tree.Nodes
	meta.LOD = lod
	return nil
}

// firstStart is the start of the list's first slice.
func (l *lodList) firstStart() int64 {
	if len(l.chunks) > 0 {
		return l.chunks[0].first
	}
	return l.first
}
