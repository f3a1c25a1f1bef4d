package decode

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func stackText(s Stack) string {
	var b strings.Builder
	for _, l := range s.Lines {
		fmt.Fprintf(&b, "%s%d x%d %dms", strings.Repeat("  ", l.Depth), l.MethodID, l.Count, l.Cost)
		if l.Unclosed {
			b.WriteString(" unclosed")
		}
		if l.NoEnter {
			b.WriteString(" noenter")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func slowest(t *testing.T, recs []Record, top, maxStack int, tinyBudget bool) ([]Stack, int64) {
	t.Helper()
	s := NewSlowestCalls(top, maxStack)
	if tinyBudget {
		s.pruneAt = maxStack + 1 // prune as often as possible
	}
	if _, _, err := pairAllTo(recs, s.Add); err != nil {
		t.Fatal(err)
	}
	return s.Stacks(), s.TopLevelCalls()
}

func pairAllTo(recs []Record, fn func(Frame)) ([]Frame, PairStats, error) {
	p := NewPairer(func(f Frame) error { fn(f); return nil }, nil)
	for _, r := range recs {
		if err := p.Add(r); err != nil {
			return nil, p.Stats(), err
		}
	}
	return nil, p.Stats(), p.Finish()
}

func TestSlowestCallsTrimsCheapestLeaves(t *testing.T) {
	// main(0..100) calls a(0..50) [which calls x(1..2)], b(50..51), c(51..81), d(81..83).
	recs := []Record{I(1, 0), I(2, 0), I(7, 1), O(7, 2), O(2, 50), I(3, 50), O(3, 51), I(4, 51), O(4, 81), I(5, 81), O(5, 83), O(1, 100)}
	stacks, topLevel := slowest(t, recs, 5, 3, false)
	if topLevel != 1 || len(stacks) != 1 {
		t.Fatalf("topLevel=%d stacks=%d", topLevel, len(stacks))
	}
	want := "1 x1 100ms\n  2 x1 50ms\n  4 x1 30ms\n"
	if got := stackText(stacks[0]); got != want {
		t.Errorf("stack:\n%swant:\n%s", got, want)
	}
	// 4 costs exactly 30%, which qualifies (Matrix: at least 30%); 1 and 2
	// weigh (depth+1)*cost = 100 each, and the earlier wins.
	if got := stacks[0].KeyString(); got != "1|" {
		t.Errorf("key = %q", got)
	}
}

func TestSlowestCallsMergesRepeatedCalls(t *testing.T) {
	// A loop calling step(4) three times, each calling spin(5).
	recs := []Record{I(3, 0)}
	ms := uint64(0)
	for i := 0; i < 3; i++ {
		recs = append(recs, I(4, ms), I(5, ms), O(5, ms+5), O(4, ms+6))
		ms += 6
	}
	recs = append(recs, O(3, ms))
	stacks, _ := slowest(t, recs, 1, 30, false)
	want := "3 x1 18ms\n  4 x3 18ms\n    5 x3 15ms\n"
	if got := stackText(stacks[0]); got != want {
		t.Errorf("stack:\n%swant:\n%s", got, want)
	}
}

func TestSlowestCallsPicksSlowestTopLevel(t *testing.T) {
	var recs []Record
	ms := uint64(0)
	for i, cost := range []uint64{5, 50, 7, 40, 1} {
		recs = append(recs, I(i+1, ms), O(i+1, ms+cost))
		ms += cost + 1
	}
	stacks, topLevel := slowest(t, recs, 2, 30, false)
	if topLevel != 5 || len(stacks) != 2 {
		t.Fatalf("topLevel=%d stacks=%d", topLevel, len(stacks))
	}
	if stacks[0].Lines[0].MethodID != 2 || stacks[1].Lines[0].MethodID != 4 {
		t.Errorf("slowest = %d, %d; want 2, 4", stacks[0].Lines[0].MethodID, stacks[1].Lines[0].MethodID)
	}
}

// referenceStacks computes the same result the simple way: the whole call
// forest in memory (built from frames in entry order with absolute depths,
// independently of SlowestCalls' post-order bookkeeping), then the global
// rank cut.
func referenceStacks(t *testing.T, recs []Record, top, maxStack int) []Stack {
	t.Helper()
	var frames []Frame
	p := NewPairer(func(f Frame) error { frames = append(frames, f); return nil }, nil)
	for _, r := range recs {
		if err := p.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(frames, compareSeq)
	type ref struct {
		node  *callNode
		depth int
	}
	var roots []*callNode
	var path []ref
	for _, f := range frames {
		d := f.AbsoluteDepth(p.Orphans())
		for len(path) > 0 && path[len(path)-1].depth >= d {
			path = path[:len(path)-1]
		}
		n := &callNode{frame: f}
		if len(path) == 0 {
			roots = append(roots, n)
		} else {
			parent := path[len(path)-1].node
			parent.children = append(parent.children, n)
		}
		path = append(path, ref{n, d})
	}
	var eff func(n *callNode) uint64
	eff = func(n *callNode) uint64 {
		n.eff = n.frame.Cost()
		for _, c := range n.children {
			n.eff = max(n.eff, eff(c))
		}
		return n.eff
	}
	for _, r := range roots {
		eff(r)
	}
	slices.SortStableFunc(roots, compareRank)
	if len(roots) > top {
		roots = roots[:top]
	}
	var out []Stack
	for _, r := range roots {
		var all []*callNode
		var walk func(*callNode)
		walk = func(n *callNode) {
			all = append(all, n)
			for _, c := range n.children {
				walk(c)
			}
		}
		walk(r)
		slices.SortFunc(all, compareRank)
		keep := map[*callNode]bool{}
		for _, n := range all[:min(maxStack, len(all))] {
			keep[n] = true
		}
		var prune func(n *callNode)
		prune = func(n *callNode) {
			var kept []*callNode
			for _, c := range n.children {
				if keep[c] {
					prune(c)
					kept = append(kept, c)
				}
			}
			n.children = kept
		}
		prune(r)
		lines := appendMergedLines(nil, []*callNode{r}, 0)
		out = append(out, Stack{Lines: lines, Key: KeyMethods(lines)})
	}
	return out
}

// randomBuffer makes a messy buffer: random nesting, missing exits
// (exceptions), orphan exits at the start and later, stray exits.
func randomBuffer(rng *rand.Rand, n, maxOpen int) []Record {
	var recs []Record
	var open []int
	ms := uint64(rng.IntN(5))
	for len(recs) < n {
		ms += uint64(rng.IntN(4))
		id := 1 + rng.IntN(9)
		switch x := rng.IntN(100); {
		case x < 45 && len(open) < maxOpen:
			recs = append(recs, I(id, ms))
			open = append(open, id)
		case x < 88 && len(open) > 0:
			recs = append(recs, O(open[len(open)-1], ms))
			open = open[:len(open)-1]
		case x < 93 && len(open) > 1:
			// An exception skips the innermost exit.
			open = open[:len(open)-1]
			recs = append(recs, O(open[len(open)-1], ms))
			open = open[:len(open)-1]
		case x < 98 && len(open) == 0:
			recs = append(recs, I(id, ms))
			open = append(open, id)
		default:
			// An exit whose enter is not in the buffer (or a stray one).
			recs = append(recs, O(id, ms))
		}
	}
	return recs
}

func TestSlowestCallsMatchesWholeForest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		// Deep buffers exercise trimming inside a call tree, shallow ones
		// many top-level calls and exits adopting them.
		maxOpen := []int{12, 3, 1}[round%3]
		recs := randomBuffer(rng, 20+rng.IntN(400), maxOpen)
		top, maxStack := 1+rng.IntN(4), 1+rng.IntN(12)
		want := referenceStacks(t, recs, top, maxStack)
		got, _ := slowest(t, recs, top, maxStack, true)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d stacks, want %d", round, len(got), len(want))
		}
		for i := range want {
			if g, w := stackText(got[i]), stackText(want[i]); g != w {
				t.Fatalf("round %d (top %d, maxStack %d) stack %d:\n%swant:\n%s", round, top, maxStack, i, g, w)
			}
			if g, w := got[i].KeyString(), want[i].KeyString(); g != w {
				t.Fatalf("round %d stack %d: key %s, want %s", round, i, g, w)
			}
		}
	}
}

func TestSlowestCallsOrphanAdoptsManyTopLevelCalls(t *testing.T) {
	// 40 top-level calls of different costs, then the exit of a call that
	// started before the buffer: it encloses all 40, and its 5 costliest
	// calls are itself and the 4 costliest of them, in call order.
	var recs []Record
	ms := uint64(0)
	for i := 0; i < 40; i++ {
		cost := uint64((i * 37) % 41)
		recs = append(recs, I(1+i%8, ms), O(1+i%8, ms+cost))
		ms += cost
	}
	recs = append(recs, O(9, ms+1))
	stacks, topLevel := slowest(t, recs, 1, 5, true)
	if topLevel != 1 {
		t.Fatalf("topLevel = %d", topLevel)
	}
	want := referenceStacks(t, recs, 1, 5)
	if g, w := stackText(stacks[0]), stackText(want[0]); g != w {
		t.Fatalf("stack:\n%swant:\n%s", g, w)
	}
	if n := len(stacks[0].Lines); n != 5 {
		t.Errorf("%d lines, want 5:\n%s", n, stackText(stacks[0]))
	}
}

func TestKeyMethods(t *testing.T) {
	tests := []struct {
		name  string
		lines []StackLine
		want  string
	}{
		{"the largest (depth+1)*cost of those costing 30%",
			[]StackLine{{0, 1, 1, 1000, false, false}, {1, 2, 1, 900, false, false}, {2, 3, 1, 500, false, false}, {2, 4, 1, 200, false, false}},
			"2|"},
		{"looper dispatch dropped when others qualify",
			[]StackLine{{0, methodIDDispatch, 1, 800, false, false}, {1, 5, 1, 700, false, false}},
			"5|"},
		{"only the dispatch qualifies",
			[]StackLine{{0, methodIDDispatch, 1, 800, false, false}, {1, 5, 1, 100, false, false}},
			"1048574|"},
		{"zero cost stack: the first line",
			[]StackLine{{0, 9, 1, 0, false, false}, {1, 5, 1, 0, false, false}},
			"9|"},
		{"a tie goes to the earlier line",
			[]StackLine{{0, 1, 1, 100, false, false}, {1, 2, 1, 40, false, false}, {1, 2, 1, 50, false, false}},
			"1|"},
		{"Matrix 0.6.0's own EvilMethodTracer report of the 800 ms message (scripts/android-check.sh): 8|",
			[]StackLine{{0, methodIDDispatch, 1, 800, false, false}, {1, 10, 1, 800, false, false}, {2, 8, 1, 800, false, false}},
			"8|"},
	}
	for _, tc := range tests {
		if got := (Stack{Key: KeyMethods(tc.lines)}).KeyString(); got != tc.want {
			t.Errorf("%s: key = %q, want %q", tc.name, got, tc.want)
		}
	}
}
