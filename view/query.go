package view

// Window is what a thread shows between two times at a resolution: its
// calls as flat numbers, five a call (the name's index, the start, the
// duration, the depth and the flags, ns), the calls narrower than a pixel
// merged: at each depth, the small calls that start within one pixel of
// each other become one slice (FlagMerged) spanning them, named after the
// first, so a window holds at most about a slice a pixel a depth
// whatever the number of calls under it.
type Window struct {
	Tid    int64   `json:"tid"`
	Slices []int64 `json:"slices"`
	Calls  int64   `json:"calls"`  // the calls the window's slices stand for
	Merged int64   `json:"merged"` // of them, those merged
}

// maxWindowSlices bounds a window's slices: a request for a million
// pixels gets fewer.
const maxWindowSlices = 1 << 21

// Window gives the calls of t that overlap [from, to), at nsPerPx
// nanoseconds a pixel (at least 1), down to maxDepth (the page draws 40
// rows a thread: deeper calls would only cost the transfer).
func (t *Thread) Window(from, to, nsPerPx int64, maxDepth int) Window {
	nsPerPx = max(nsPerPx, 1)
	w := Window{Tid: t.Tid}
	type run struct {
		at       int // index of the merged slice in w.Slices, -1: none open
		pixelEnd int64
	}
	runs := make([]run, min(maxDepth, t.MaxDepth+1)) // the open merged slice of each depth
	for d := range runs {
		runs[d].at = -1
	}
	for i := 0; i < len(t.start); {
		s, e := t.start[i], t.end[i]
		switch {
		case s >= to && !(s == to && e == s && to == from):
			return w // calls come in the order they started: none after
		case e <= from && !(e == s && s == from):
			i = int(t.next[i]) // it and its callees end before the window
			continue
		}
		if int(t.depth[i]) >= maxDepth {
			i = int(t.next[i]) // below what is drawn
			continue
		}
		sub := int64(t.next[i] - int32(i)) // it and its callees
		if e-s >= nsPerPx || len(w.Slices) >= 5*maxWindowSlices {
			if len(w.Slices) < 5*maxWindowSlices {
				w.Slices = append(w.Slices, int64(t.name[i]), s, e-s, int64(t.depth[i]), int64(t.flags[i]))
				w.Calls++
			}
			runs[t.depth[i]].at = -1 // what follows at its depth merges anew
			i++
			continue
		}
		// Narrower than a pixel: it and its callees merge into the
		// depth's current slice when it starts within that pixel.
		d := t.depth[i]
		if r := &runs[d]; r.at >= 0 && s < r.pixelEnd {
			sl := w.Slices[r.at : r.at+5]
			sl[2] = max(sl[2], e-sl[1])
			r.pixelEnd = max(r.pixelEnd, e)
		} else {
			*r = run{at: len(w.Slices), pixelEnd: max(s+nsPerPx, e)}
			w.Slices = append(w.Slices, int64(t.name[i]), s, e-s, int64(d), FlagMerged)
		}
		w.Calls += sub
		w.Merged += sub
		i = int(t.next[i])
	}
	return w
}
