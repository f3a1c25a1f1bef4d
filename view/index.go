// Package view serves a recording too large for one page: an index of
// every call, kept in memory, and a local HTTP server that gives the page
// (decode/htmlview, in its server mode) the whole call tree at once and
// the calls of the window it shows when it shows them, those narrower
// than a pixel merged (query.go).
package view

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// Index holds every call of a decode, thread by thread in the order they
// started (each call before its callees), and the call tree merged over
// the threads. It is a traceout.Sink: decode writes its events to it
// (decode.EventsTo).
type Index struct {
	Names    []string
	names    map[string]int32
	Threads  []*Thread
	threads  map[[2]int64]*Thread
	Notes    []string
	Clock    string
	Process  string
	LengthNs int64
	Lost     bool
	// Tree is the call tree.
	Tree  traceout.CallTree
	Calls int64
}

// Thread is one thread's calls, as columns: call i started at start[i],
// ended at end[i], and its callees are i+1 .. next[i]-1.
type Thread struct {
	Pid, Tid int64
	Name     string
	start    []int64
	end      []int64
	name     []int32
	depth    []uint16
	flags    []uint8
	next     []int32
	MaxDepth int
	open     []int32 // calls not yet ended, innermost last
	nodes    []int32 // their tree nodes
}

// Slice flags, as the page reads them.
const (
	FlagUnclosed = 1 // no exit recorded
	FlagNoEnter  = 2 // started before the kept records
	FlagMerged   = 4 // calls narrower than a pixel, merged (query.go)
)

// maxCalls: a thread's columns are indexed by int32.
const maxCalls = math.MaxInt32 - 1

func NewIndex() *Index {
	return &Index{names: map[string]int32{}, threads: map[[2]int64]*Thread{}}
}

// Write takes decode's events: thread names, the clock's line, and each
// call as a complete event, callers first.
func (x *Index) Write(e traceout.Event) error {
	switch e.Ph {
	case 'M':
		name := traceout.ArgString(e.Args, "name")
		switch e.Name {
		case "process_name":
			if x.Process == "" {
				x.Process = name
			}
		case "thread_name":
			x.thread(e.Pid, e.Tid).Name = name
		}
	case 'i':
		if e.Tid == 0 && len(e.Name) > 6 && e.Name[:6] == "clock:" {
			x.Clock = e.Name
		}
	case 'X':
		return x.call(e)
	}
	return nil
}

func (x *Index) call(e traceout.Event) error {
	t := x.thread(e.Pid, e.Tid)
	t.closeUntil(e.TsNs)
	if len(t.start) >= maxCalls {
		return fmt.Errorf("thread %d (%s) has more than %d calls: too many to serve", t.Tid, t.Name, maxCalls)
	}
	end := e.TsNs + max(e.DurNs, 0)
	if end < e.TsNs {
		end = math.MaxInt64
	}
	parentNode := int32(0)
	if n := len(t.open); n > 0 {
		end = min(end, t.end[t.open[n-1]]) // a callee ends within its caller
		parentNode = t.nodes[n-1]
	}
	flags := uint8(0)
	if traceout.HasFlag(e.Args, "unclosed") {
		flags |= FlagUnclosed
	}
	if traceout.HasFlag(e.Args, "startedBeforeBuffer") {
		flags |= FlagNoEnter
	}
	name := x.name(e.Name)
	i := int32(len(t.start))
	t.start = append(t.start, e.TsNs)
	t.end = append(t.end, end)
	t.name = append(t.name, name)
	t.depth = append(t.depth, uint16(min(len(t.open), math.MaxUint16)))
	t.flags = append(t.flags, flags)
	t.next = append(t.next, 0)
	t.MaxDepth = max(t.MaxDepth, len(t.open))
	node := x.Tree.Node(parentNode, name)
	x.Tree.Add(node, parentNode, end-e.TsNs)
	t.open = append(t.open, i)
	t.nodes = append(t.nodes, node)
	x.Calls++
	return nil
}

// closeUntil ends the open calls that ended by at: their callees are the
// calls up to here.
func (t *Thread) closeUntil(at int64) {
	for n := len(t.open); n > 0 && t.end[t.open[n-1]] <= at; n = len(t.open) {
		t.next[t.open[n-1]] = int32(len(t.start))
		t.open, t.nodes = t.open[:n-1], t.nodes[:n-1]
	}
}

func (x *Index) name(s string) int32 {
	if i, ok := x.names[s]; ok {
		return i
	}
	x.names[s] = int32(len(x.Names))
	x.Names = append(x.Names, s)
	return int32(len(x.Names) - 1)
}

func (x *Index) thread(pid, tid int64) *Thread {
	k := [2]int64{pid, tid}
	if t := x.threads[k]; t != nil {
		return t
	}
	t := &Thread{Pid: pid, Tid: tid, Name: "tid " + strconv.FormatInt(tid, 10)}
	x.threads[k] = t
	x.Threads = append(x.Threads, t)
	return t
}

// Close ends every call still open.
func (x *Index) Close() error {
	for _, t := range x.Threads {
		t.closeUntil(math.MaxInt64)
		t.open, t.nodes = nil, nil
	}
	x.Tree.Done()
	return nil
}

// Note and Span take decode's notes and the recording's length.
func (x *Index) Note(s string)                  { x.Notes = append(x.Notes, s) }
func (x *Index) Span(lengthNs int64, lost bool) { x.LengthNs, x.Lost = lengthNs, lost }

// Len is how many calls the thread has.
func (t *Thread) Len() int { return len(t.start) }
