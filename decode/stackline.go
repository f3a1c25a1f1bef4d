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

// KeyString is the stackKey form: ids joined with '|'.
func (s Stack) KeyString() string {
	parts := make([]string, len(s.Key))
	for i, id := range s.Key {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, "|")
}

// methodIDDispatch is the id Matrix's runtime uses for the main looper's
// dispatchMessage; it says nothing about the cause of a slow stack.
const methodIDDispatch = 0xFFFFF - 1

// keyCostShare: a key method takes more than this share of the stack's cost.
const keyCostShare = 0.3

// KeyMethods finds a stack's key methods as Matrix describes it: the calls
// costing more than 30% of the stack, ordered by depth*cost (deep and
// expensive first, stable for equal products). The looper dispatch id is
// dropped when anything else qualifies; an empty result falls back to the
// first line.
func KeyMethods(lines []StackLine) []int {
	if len(lines) == 0 {
		return nil
	}
	stackCost := Stack{Lines: lines}.Cost()
	limit := float64(stackCost) * keyCostShare
	var picked []StackLine
	for _, l := range lines {
		if float64(l.Cost) > limit {
			picked = append(picked, l)
		}
	}
	slices.SortStableFunc(picked, func(a, b StackLine) int {
		pa, pb := int64(a.Depth)*a.Cost, int64(b.Depth)*b.Cost
		switch {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return 0
	})
	var key []int
	for _, l := range picked {
		if l.MethodID == methodIDDispatch && len(picked) > 1 {
			continue
		}
		if !slices.Contains(key, l.MethodID) {
			key = append(key, l.MethodID)
		}
	}
	if len(key) == 0 {
		key = []int{lines[0].MethodID}
	}
	return key
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
