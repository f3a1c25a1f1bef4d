package decode

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// StackLine is one line of a Matrix stack: "depth,methodId,count,cost".
type StackLine struct {
	Depth    int
	MethodID int
	Count    int
	Cost     int64
	// Set only for stacks rebuilt from buffers.
	Unclosed bool // some call here lost its exit record
	NoEnter  bool // some call here started before the buffer
}

// String is the Matrix form of the line.
func (l StackLine) String() string {
	return strconv.Itoa(l.Depth) + "," + strconv.Itoa(l.MethodID) + "," + strconv.Itoa(l.Count) + "," + strconv.FormatInt(l.Cost, 10)
}

// Stack is one call tree in pre-order, with its key method ids.
type Stack struct {
	Lines []StackLine
	// Key lists the key method ids, most significant first. Matrix joins
	// them with '|' as the report's stackKey.
	Key []int
	// Fields of the report the stack came from (empty for buffers).
	Report map[string]string
	// Unit is the unit of the lines' costs: 0 means milliseconds (Matrix
	// reports and AppMethodBeat buffers); recordings use nanoseconds.
	Unit time.Duration
}

// formatCost shows a cost in the stack's unit: whole milliseconds, or
// nanoseconds as microseconds with three decimals.
func (s Stack) formatCost(c int64) string {
	if s.Unit == 0 || s.Unit == time.Millisecond {
		return strconv.FormatInt(c, 10) + " ms"
	}
	ns := c * int64(s.Unit)
	return strconv.FormatInt(ns/1000, 10) + "." + fmt.Sprintf("%03d", ns%1000) + " µs"
}

// Cost is the stack's cost: its costliest line (the outermost call).
func (s Stack) Cost() int64 {
	var c int64
	for _, l := range s.Lines {
		c = max(c, l.Cost)
	}
	return c
}

// KeyString is the stackKey form Matrix writes: each id followed by '|'
// ("8|" for one key method).
func (s Stack) KeyString() string {
	var b strings.Builder
	for _, id := range s.Key {
		b.WriteString(strconv.Itoa(id))
		b.WriteByte('|')
	}
	return b.String()
}

// methodIDDispatch is the id Matrix's runtime uses for the main looper's
// dispatchMessage; it says nothing about the cause of a slow stack.
const methodIDDispatch = 0xFFFFF - 1

// keyCostShare: a key method takes at least this share of the stack's cost.
const keyCostShare = 0.3

// KeyMethods finds a stack's key method as Matrix's TraceDataUtils.getTreeKey
// does, so that a decoded stack groups as Matrix groups its reports: of the
// calls costing at least 30% of the stack (its top-level cost times 0.3 in
// float, cut to whole milliseconds), the one with the largest
// (depth+1)*cost, the earlier in the stack on a tie; the looper dispatch
// only when nothing else qualifies; the first line when nothing does.
// Matrix's key holds that one method (its getTreeKey stops after the
// first); a report may carry another key, which is kept as given.
func KeyMethods(lines []StackLine) []int {
	if len(lines) == 0 {
		return nil
	}
	limit := int64(float32(Stack{Lines: lines}.Cost()) * float32(keyCostShare))
	var picked []StackLine
	for _, l := range lines {
		if l.Cost >= limit {
			picked = append(picked, l)
		}
	}
	weight := func(l StackLine) int64 { return int64(l.Depth+1) * l.Cost }
	slices.SortStableFunc(picked, func(a, b StackLine) int {
		switch wa, wb := weight(a), weight(b); {
		case wa > wb:
			return -1
		case wa < wb:
			return 1
		}
		return 0
	})
	switch {
	case len(picked) == 0:
		return []int{lines[0].MethodID}
	case len(picked) > 1 && picked[0].MethodID == methodIDDispatch:
		return []int{picked[1].MethodID}
	}
	return []int{picked[0].MethodID}
}

// KeyMarks tells which lines to mark as key methods: lines of a key method
// that pass the 30% cost bar (a cheap repeat of the same method elsewhere
// in the tree is not the cause). If no line of a key id passes the bar (a
// report's stackKey computed differently), all its lines are marked.
func (s Stack) KeyMarks() []bool {
	marks := make([]bool, len(s.Lines))
	limit := float64(s.Cost()) * keyCostShare
	for _, id := range s.Key {
		any := false
		for i, l := range s.Lines {
			if l.MethodID == id && float64(l.Cost) > limit {
				marks[i], any = true, true
			}
		}
		if !any {
			for i, l := range s.Lines {
				if l.MethodID == id {
					marks[i] = true
				}
			}
		}
	}
	return marks
}
