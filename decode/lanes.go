package decode

import (
	"container/heap"
	"fmt"
)

// Virtual threads (Java 21) are many and short: a server runs a task on
// each, and a recording of one may hold a hundred thousand. A viewer with a
// track per thread is of no use then, so decode draws them the way a
// carrier thread runs them: on lanes, a thread on the first lane free when
// it starts, each slice naming its thread (args: vtid, and its name when
// it has one). The lanes are a process of their own, "virtual threads",
// beside the JVM's threads; there are about as many as ran at once.

// virtualPid is the process the lanes of virtual threads belong to.
const virtualPid = 2

// laneSet hands out lanes: a lane is free once the last thread on it has
// ended.
type laneSet struct {
	free  laneHeap // every lane, by the end of its last thread
	count int
}

type lane struct {
	end uint64
	id  int
}

type laneHeap []lane

func (h laneHeap) Len() int { return len(h) }
func (h laneHeap) Less(i, j int) bool {
	return h[i].end < h[j].end || h[i].end == h[j].end && h[i].id < h[j].id
}
func (h laneHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *laneHeap) Push(x any)   { *h = append(*h, x.(lane)) }
func (h *laneHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// place gives a thread that ran from start to end a lane (1, 2, ...),
// and whether the lane is new.
func (l *laneSet) place(start, end uint64) (id int, fresh bool) {
	if len(l.free) > 0 && l.free[0].end <= start {
		id = l.free[0].id
		l.free[0].end = max(end, start)
		heap.Fix(&l.free, 0)
		return id, false
	}
	l.count++
	heap.Push(&l.free, lane{end: max(end, start), id: l.count})
	return l.count, true
}

// laneName is how outputs name a lane of virtual threads.
func laneName(id int) string { return fmt.Sprintf("virtual threads %d", id) }

// threadSpan is the time from a thread's first call to its last end.
type threadSpan struct {
	start, end uint64
	any        bool
}

func (s *threadSpan) add(f Frame) {
	end := max(f.End, f.Start)
	if !s.any {
		s.start, s.end, s.any = f.Start, end, true
		return
	}
	s.start, s.end = min(s.start, f.Start), max(s.end, end)
}

// laneSlices hands a virtual thread's frames, held until its lane was
// known, to s on that lane, in the order they closed, with the depths the
// sink's Lift would have given them: a frame without enter encloses the
// frames closed before it.
func laneSlices(s SliceSink, lane int64, frames []Frame, names []string) error {
	lifts := make([]int, len(frames))
	n := 0
	for i := len(frames) - 1; i >= 0; i-- {
		lifts[i] = n
		if frames[i].NoEnter {
			n++
		}
	}
	for i, f := range frames {
		f.Depth += lifts[i]
		f.NoEnter = false
		if err := sliceOfFrame(s, virtualPid, lane, names[i], f); err != nil {
			return err
		}
	}
	return nil
}
