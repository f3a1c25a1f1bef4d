package traceout

import (
	"math"

	"github.com/tracebeat/tracebeat/decode/htmlview"
)

// lodChunk is how many slices of a list unpack together: a window's
// slices are found by the chunks' starts and ends, and the page unpacks
// only the chunks it shows.
const lodChunk = 4096

// lodBlockBytes is about how many bytes a script block of levels holds.
var lodBlockBytes = 1 << 20

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
	// The chunks go into script blocks of about a MiB: the page decodes a
	// block's base64 when it first shows one of its chunks.
	var packed []byte
	flush := func() {
		if len(packed) > 0 {
			h.block(packed)
			packed = packed[:0]
		}
	}
	for j := range b.levels {
		level := htmlview.LODLevel{PxNs: lodPx(j), Lists: []int64{}}
		for _, t := range h.order {
			lt := t.lod
			if lt == nil || lt.calls == 0 {
				continue
			}
			for depth, list := range lt.lists[j] {
				if len(list) == 0 {
					continue
				}
				chunks := (len(list) + lodChunk - 1) / lodChunk
				level.Lists = append(level.Lists, int64(index[lt]), int64(depth), int64(len(list)), int64(chunks))
				reach := int64(math.MinInt64)
				for c := 0; c < len(list); c += lodChunk {
					if len(packed) >= lodBlockBytes {
						flush()
					}
					level.Lists = append(level.Lists, int64(h.blocks), int64(len(packed)), list[c].start)
					last := int64(0) // a chunk's starts begin anew: it unpacks alone
					for _, s := range list[c:min(c+lodChunk, len(list))] {
						packed = packSlice(packed, int(s.name), s.start-last, s.dur, 0, uint64(s.flags)) // depth 0: the fourth number is the flags
						last = s.start
						reach = max(reach, s.start+s.dur)
					}
					level.Lists = append(level.Lists, reach)
				}
			}
		}
		lod.Levels = append(lod.Levels, level)
	}
	flush()
	meta.Tree = b.tree.tree
	meta.LOD = lod
}
