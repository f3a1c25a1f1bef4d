// Package profile adds up what a trace recorded into time per method and
// per call path: calls, self time and total (inclusive) time, from a
// recording of tracebeat's runtime or an AppMethodBeat buffer. It is what
// `tracebeat diff` compares: names, not ids, so that two builds whose ids
// differ can be matched.
//
// It reads the inputs with package decode's readers and pairs their
// records with decode.Pairer, as decode does, without holding the calls:
// a pass over the records, a stack of the open calls, and a table per
// method and per path.
package profile

import "time"

// Stat is what the calls of one method (or one call path) add up to.
// Times are nanoseconds.
type Stat struct {
	Calls int64
	// Self is the time in the method's own code: its calls' time less
	// the time of the calls they made.
	Self int64
	// Total is the time from entry to exit, counted once when the method
	// calls itself (a recursive call inside another of the same method
	// adds nothing more).
	Total int64
	// ChildCalls are the calls its calls made (directly): with Calls,
	// the records whose times its self time is made of, each of which a
	// coarse clock may have placed early (diff's allowance for the clock).
	ChildCalls int64
	// LateCalls and LateChildCalls count, of Calls and ChildCalls, the
	// calls whose enter or exit carried the time of an earlier record (a
	// shared clock read for another record): only those may be off by the
	// clock. A call whose records each read the clock (code that calls
	// little, a late clock thread) has its exact time.
	LateCalls      int64
	LateChildCalls int64
}

// Profile is one trace added up.
type Profile struct {
	Source  string
	Methods map[string]Stat // by name (decode's display name)
	// Tree is the call tree: the root stands for no method, its children
	// are the top-level calls.
	Tree *Node
	// Calls are the calls added up. Partial calls, whose enter the trace
	// lost (a ring that wrapped), are left out: their time is unknown.
	Calls   int64
	Partial int64
	// Builds are a recording's build identities (decode.Recording.Builds).
	Builds []string
	// Resolution is how late a time may be, in nanoseconds (decode's
	// RecordingClock.Resolution; a Matrix buffer's millisecond), and
	// TypicalResolution the records' mean bound (RecordingClock's
	// TypicalResolution; the same for a buffer). LateResolution is the
	// mean bound of a record that carried an earlier record's time: the
	// typical one over all records, spread over those only.
	Resolution        int64
	TypicalResolution int64
	LateResolution    int64
	Notes             []string
	// Start and End are when the recording started and was written, on
	// the wall clock (zero for an AppMethodBeat buffer, which does not
	// say): diff tells from them whether two builds' runs took turns.
	Start, End time.Time
	// Missing says what the trace lost (records a full ring overwrote, a
	// cut, a stream's dropped chunks), one line each; every output says it.
	Missing []string
}

// Node is a call path: the calls of Name from its parent's path.
type Node struct {
	Name     string
	Stat     Stat
	Children map[string]*Node
}

// Child returns the child of n named name, making it when asked to.
func (n *Node) Child(name string, make bool) *Node {
	c := n.Children[name]
	if c == nil && make {
		if n.Children == nil {
			n.Children = map[string]*Node{}
		}
		c = &Node{Name: name}
		n.Children[name] = c
	}
	return c
}
