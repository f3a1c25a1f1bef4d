package traceout

import (
	"math"

	"github.com/tracebeat/tracebeat/decode/htmlview"
)

// writeLevels writes the levels of detail, a script block a level, and
// says in meta what they hold: the threads with their calls, the span,
// the call tree.
func (h *htmlWriter) writeLevels(meta *htmlview.Meta) {
	b := h.lod
	b.finish()
	lod := &htmlview.LOD{DetailNs: lodPx(b.levels - 1), Limit: h.limit}
	index := map[*lodThread]int{}
	meta.TMin, meta.TMax = math.MaxInt64, math.MinInt64
	for _, t := range h.order {
		lt := t.lod
		if lt == nil || lt.calls == 0 {
			continue
		}
		index[lt] = len(meta.Threads)
		meta.Threads = append(meta.Threads, htmlview.Thread{Pid: t.pid, Tid: t.tid, Name: t.name, Slices: int(min(lt.calls, math.MaxInt32)), MaxDepth: lt.maxDepth, Blocks: []int{}})
		lod.Calls += lt.calls
		for j := range b.levels {
			for _, list := range lt.lists[j] {
				for _, s := range list {
					meta.TMin = min(meta.TMin, s.start)
					meta.TMax = max(meta.TMax, s.start+s.dur)
				}
			}
		}
	}
	if meta.TMin > meta.TMax {
		meta.TMin, meta.TMax = 0, 1
	}
	var packed []byte
	for j := range b.levels {
		level := htmlview.LODLevel{PxNs: lodPx(j), Block: -1}
		packed = packed[:0]
		for _, t := range h.order {
			lt := t.lod
			if lt == nil || lt.calls == 0 {
				continue
			}
			for depth, list := range lt.lists[j] {
				if len(list) == 0 {
					continue
				}
				level.Lists = append(level.Lists, index[lt], depth, len(list))
				last := int64(0)
				for _, s := range list {
					packed = packSlice(packed, int(s.name), s.start-last, s.dur, 0, uint64(s.flags)) // depth 0: the fourth number is the flags
					last = s.start
				}
			}
		}
		if len(packed) > 0 {
			level.Block = h.block(packed)
		}
		lod.Levels = append(lod.Levels, level)
	}
	meta.Tree = b.tree.tree
	meta.LOD = lod
}
