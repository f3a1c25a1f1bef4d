package traceout

import "math"

// nesting turns a track's complete events (a start and a duration, each
// caller before its callees) into begins and ends in time order: the
// writers of formats that want both (Perfetto, Android's method trace,
// speedscope) keep one per track. V is what a writer needs at the end.
type nesting[V any] struct {
	open []nested[V]
}

type nested[V any] struct {
	end int64
	v   V
}

// push opens an event from start lasting dur (an end beyond its caller's
// is cut to it: a callee ends within its caller) and returns its end.
func (n *nesting[V]) push(start, dur int64, v V) int64 {
	end := start + max(dur, 0)
	if end < start {
		end = math.MaxInt64 // a damaged duration must not wrap around
	}
	if k := len(n.open); k > 0 {
		end = min(end, n.open[k-1].end)
	}
	n.open = append(n.open, nested[V]{end: end, v: v})
	return end
}

// pushOpen opens an event whose end is not known yet (a B event).
func (n *nesting[V]) pushOpen(v V) { n.open = append(n.open, nested[V]{end: math.MaxInt64, v: v}) }

// pop closes the innermost event (an E event), if any.
func (n *nesting[V]) pop() (V, bool) {
	k := len(n.open)
	if k == 0 {
		var zero V
		return zero, false
	}
	v := n.open[k-1].v
	n.open = n.open[:k-1]
	return v, true
}

// closeUntil closes, innermost first, the events that end by ts.
func (n *nesting[V]) closeUntil(ts int64, closed func(end int64, v V)) {
	for k := len(n.open); k > 0 && n.open[k-1].end <= ts; k = len(n.open) {
		o := n.open[k-1]
		n.open = n.open[:k-1]
		closed(o.end, o.v)
	}
}

// allKnown reports whether every open event has its end.
func (n *nesting[V]) allKnown() bool {
	for _, o := range n.open {
		if o.end == math.MaxInt64 {
			return false
		}
	}
	return true
}

// HasFlag reports whether args hold the boolean key set.
func HasFlag(args []Arg, key string) bool {
	for _, a := range args {
		if a.Key == key && a.Kind == 'b' {
			return a.Int != 0
		}
	}
	return false
}
