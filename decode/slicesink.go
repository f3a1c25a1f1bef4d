package decode

import (
	"errors"
	"math"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// A SliceSink takes a decode's slices instead of bytes: an io.Writer that
// is also a SliceSink, given to Decode with the json or perfetto format,
// gets every thread's name and each slice with its depth, and no bytes.
// That is how --png draws a trace without writing it out first.
//
// Slices come in no particular order. A recording's come as its calls
// close, unsorted, and one whose start the ring no longer held (it
// encloses every slice of its thread given before it) first lifts those
// by one level: Lift.
type SliceSink interface {
	Thread(pid, tid int64, name string)
	// Slice is one call or section: times in nanoseconds, depth the number
	// of slices of its thread that enclose it (Lifts to come aside).
	Slice(pid, tid int64, name string, startNs, endNs int64, depth int, unclosed bool) error
	// Lift adds one to the depth of every slice of the thread given so far.
	Lift(pid, tid int64)
}

// sliceOfFrame gives a recording's frame to a SliceSink as it closes.
func sliceOfFrame(s SliceSink, pid, tid int64, name string, f Frame) error {
	if f.NoEnter {
		s.Lift(pid, tid)
	}
	end := Int64(f.End)
	if f.End < f.Start {
		end = math.MaxInt64
	}
	return s.Slice(pid, tid, name, Int64(f.Start), end, f.Depth, f.Unclosed)
}

// sliceAdapter is the eventSink that turns events into SliceSink calls:
// complete events (which come callers first per thread) nest by their
// ends, B/E pairs by their order.
type sliceAdapter struct {
	sink   SliceSink
	tracks map[trackKey]*sliceTrack
}

type sliceTrack struct {
	ends  []int64 // ends of the complete events enclosing the next one
	begun []traceout.Event
}

// trackKey names a thread's track: its process and thread ids.
type trackKey struct{ pid, tid int64 }

func newSliceAdapter(s SliceSink) *sliceAdapter {
	return &sliceAdapter{sink: s, tracks: map[trackKey]*sliceTrack{}}
}

func (a *sliceAdapter) track(pid, tid int64) *sliceTrack {
	k := trackKey{pid, tid}
	t := a.tracks[k]
	if t == nil {
		t = &sliceTrack{}
		a.tracks[k] = t
	}
	return t
}

func (a *sliceAdapter) Write(e traceout.Event) error {
	switch e.Ph {
	case 'M':
		if e.Name == "thread_name" {
			a.sink.Thread(e.Pid, e.Tid, traceout.ArgString(e.Args, "name"))
		}
	case 'X':
		t := a.track(e.Pid, e.Tid)
		for n := len(t.ends); n > 0 && t.ends[n-1] <= e.TsNs; n = len(t.ends) {
			t.ends = t.ends[:n-1]
		}
		end := e.TsNs + max(e.DurNs, 0)
		if end < e.TsNs {
			end = math.MaxInt64
		}
		if n := len(t.ends); n > 0 {
			end = min(end, t.ends[n-1]) // a callee ends within its caller, as the other formats show it
		}
		if err := a.sink.Slice(e.Pid, e.Tid, e.Name, e.TsNs, end, len(t.ends), traceout.HasFlag(e.Args, "unclosed")); err != nil {
			return err
		}
		t.ends = append(t.ends, end)
	case 'B':
		t := a.track(e.Pid, e.Tid)
		t.begun = append(t.begun, e)
	case 'E':
		t := a.track(e.Pid, e.Tid)
		n := len(t.begun)
		if n == 0 {
			return nil
		}
		b := t.begun[n-1]
		t.begun = t.begun[:n-1]
		return a.sink.Slice(e.Pid, e.Tid, b.Name, b.TsNs, e.TsNs, n-1, traceout.HasFlag(e.Args, "unclosed"))
	}
	return nil
}

func (a *sliceAdapter) Close() error {
	for _, t := range a.tracks {
		if len(t.begun) > 0 {
			return errors.New("slices: a begin without its end reached the end of the trace")
		}
	}
	return nil
}
