package profile

import (
	"math"

	"github.com/tracebeat/tracebeat/decode"
)

// adder adds up calls by id while a trace is read: a table per method id
// and per path node, both by index, made into names at the end.
type adder struct {
	methods  map[int]int32 // method id -> index in stats
	stats    []methodAcc
	nodes    []nodeAcc
	children map[childKey]int32
	partial  int64
	// records and late count the records read, and those whose time was
	// an earlier record's (late when allLate: a buffer's millisecond
	// clock says nothing of which records read it).
	records, late int64
	allLate       bool
}

type methodAcc struct {
	id      int
	stat    Stat
	onStack int32 // calls of it open now, for Total
}

type nodeAcc struct {
	parent int32 // -1 for the root
	method int32 // index in stats
	stat   Stat
}

type childKey struct{ parent, method int32 }

func newAdder() *adder {
	return &adder{methods: map[int]int32{}, nodes: []nodeAcc{{parent: -1, method: -1}}, children: map[childKey]int32{}}
}

func (a *adder) method(id int) int32 {
	if i, ok := a.methods[id]; ok {
		return i
	}
	i := int32(len(a.stats))
	a.methods[id] = i
	a.stats = append(a.stats, methodAcc{id: id})
	return i
}

func (a *adder) child(parent, method int32) int32 {
	k := childKey{parent, method}
	if n, ok := a.children[k]; ok {
		return n
	}
	n := int32(len(a.nodes))
	a.children[k] = n
	a.nodes = append(a.nodes, nodeAcc{parent: parent, method: method})
	return n
}

// open is a call of a thread still open: its path node and the time of
// the calls it made.
type open struct {
	method   int32
	node     int32
	children int64
	kids     int64 // the calls it made
	lateKids int64 // of those, the ones late (below)
	late     bool  // its enter carried an earlier record's time
}

// thread pairs one thread's records with a decode.Pairer and keeps, beside
// its stack of open calls, the path and callee time of each.
type thread struct {
	a      *adder
	pairer *decode.Pairer
	stack  []open
	// last is the previous record's time (-1: none); exitLate whether the
	// exit being paired carried it, exitID its method.
	last     int64
	exitLate bool
	exitID   int
}

func (a *adder) thread(where func() string) *thread {
	t := &thread{a: a, last: -1, exitLate: true}
	t.pairer = decode.NewPairer(t.closed, where)
	return t
}

// call takes the next record of the thread.
func (t *thread) call(enter bool, id int, at uint64) error {
	// A record whose time equals the one before it carried that time; the
	// first record after a read has the read's exact time. (Two reads
	// that give one value, as a coarse nanoTime may, count as late: that
	// only widens diff's allowance.)
	late := t.a.allLate || decode.Int64(at) == t.last
	t.last = decode.Int64(at)
	t.a.records++
	if late {
		t.a.late++
	}
	if enter {
		m := t.a.method(id)
		parent := int32(0)
		if n := len(t.stack); n > 0 {
			parent = t.stack[n-1].node
		}
		t.stack = append(t.stack, open{method: m, node: t.a.child(parent, m), late: late})
		t.a.stats[m].onStack++
		return t.pairer.AddCall(true, id, at)
	}
	t.exitLate, t.exitID = late, id
	err := t.pairer.AddCall(false, id, at)
	t.exitLate = true // exits the pairer makes (a cut, the end) are not read
	t.stack = t.stack[:t.pairer.Open()]
	return err
}

// closeAbove closes the calls open above the first keep at time at: their
// exits went with chunks of a stream that are not there.
func (t *thread) closeAbove(keep int, at uint64) error {
	err := t.pairer.CloseAbove(keep, at)
	t.stack = t.stack[:t.pairer.Open()]
	return err
}

// end closes the calls still open at time at.
func (t *thread) end(at uint64) error {
	err := t.pairer.FinishAt(at)
	t.stack = t.stack[:0]
	return err
}

// closed takes a frame as the pairer closes it: the open call at its depth
// is still on the stack (the stack is cut after the pairer returns).
func (t *thread) closed(f decode.Frame) error {
	if f.NoEnter {
		t.a.partial++ // a call whose enter the trace lost: its time is unknown
		return nil
	}
	o := t.stack[f.Depth]
	dur := decode.Int64(f.Cost())
	self := max(dur-o.children, 0)
	// A call the pairer closed with another method's exit (its own exit
	// was lost) has its end from a record of another call: late.
	late := o.late || t.exitLate || t.a.stats[o.method].id != t.exitID
	if f.Depth > 0 {
		t.stack[f.Depth-1].children = satAdd(t.stack[f.Depth-1].children, dur)
		t.stack[f.Depth-1].kids++
		if late {
			t.stack[f.Depth-1].lateKids++
		}
	}
	m := &t.a.stats[o.method]
	m.stat.add(o, late)
	m.stat.Self = satAdd(m.stat.Self, self)
	m.onStack--
	if m.onStack == 0 {
		m.stat.Total = satAdd(m.stat.Total, dur)
	}
	n := &t.a.nodes[o.node].stat
	n.add(o, late)
	n.Self = satAdd(n.Self, self)
	n.Total = satAdd(n.Total, dur)
	return nil
}

// add counts the call o closed, late or not, with the calls it made.
func (s *Stat) add(o open, late bool) {
	s.Calls++
	s.ChildCalls += o.kids
	s.LateChildCalls += o.lateKids
	if late {
		s.LateCalls++
	}
}

// satAdd adds two times that are not negative, saturating: a damaged
// trace's huge times must not wrap into negative sums.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// profile names what was added up.
func (a *adder) profile(source string, name func(id int) string) *Profile {
	p := &Profile{Source: source, Methods: make(map[string]Stat, len(a.stats)), Partial: a.partial}
	names := make([]string, len(a.stats))
	for i, m := range a.stats {
		names[i] = name(m.id)
		s := p.Methods[names[i]] // two ids of one name (a map that repeats a method) add up
		s.Calls += m.stat.Calls
		s.ChildCalls += m.stat.ChildCalls
		s.LateCalls += m.stat.LateCalls
		s.LateChildCalls += m.stat.LateChildCalls
		s.Self = satAdd(s.Self, m.stat.Self)
		s.Total = satAdd(s.Total, m.stat.Total)
		p.Methods[names[i]] = s
		p.Calls += m.stat.Calls
	}
	nodes := make([]*Node, len(a.nodes))
	nodes[0] = &Node{}
	for i := 1; i < len(a.nodes); i++ {
		n := a.nodes[i]
		node := nodes[n.parent].Child(names[n.method], true)
		node.Stat.Calls += n.stat.Calls
		node.Stat.ChildCalls += n.stat.ChildCalls
		node.Stat.LateCalls += n.stat.LateCalls
		node.Stat.LateChildCalls += n.stat.LateChildCalls
		node.Stat.Self = satAdd(node.Stat.Self, n.stat.Self)
		node.Stat.Total = satAdd(node.Stat.Total, n.stat.Total)
		nodes[i] = node
	}
	root := nodes[0]
	for _, c := range root.Children {
		root.Stat.Total = satAdd(root.Stat.Total, c.Stat.Total)
		root.Stat.Calls += c.Stat.Calls
	}
	p.Tree = root
	return p
}

// lateResolution spreads a mean bound over all records (typical, ns) over
// the records that carried an earlier time: their mean bound.
func (a *adder) lateResolution(typical int64) int64 {
	if a.late == 0 || a.allLate {
		return typical
	}
	return int64(float64(typical) * float64(a.records) / float64(a.late))
}
