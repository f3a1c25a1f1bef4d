package decode

import (
	"slices"
)

// callNode is one call in a call tree under construction.
type callNode struct {
	frame Frame
	// eff is the largest cost in this node's subtree. It equals the node's
	// own cost whenever the clock is monotone (a callee never outlasts its
	// caller); using it as the rank keeps every caller ranked above its
	// callees even on a bad clock, so trimming always yields a tree.
	eff      uint64
	children []*callNode
	kept     bool
}

// ranksBefore orders calls for trimming: costlier first, then earlier
// entered (callers are entered before their callees).
func ranksBefore(a, b *callNode) bool {
	if a.eff != b.eff {
		return a.eff > b.eff
	}
	return a.frame.Seq < b.frame.Seq
}

func compareRank(a, b *callNode) int {
	switch {
	case ranksBefore(a, b):
		return -1
	case ranksBefore(b, a):
		return 1
	}
	return 0
}

// SlowestCalls collects, in bounded memory, the slowest top-level calls of
// a buffer, each trimmed to its costliest calls.
//
// The result is defined without reference to memory limits: take the call
// forest of the whole buffer (frames without enter enclose everything before
// them); pick the `top` top-level calls with the highest cost; in each, keep
// the `maxStack` calls of highest cost (ties: entered first). Because a
// caller costs at least as much as each callee, the kept calls form a tree:
// this is Matrix's "drop the cheapest leaves until the stack is small
// enough", done exactly.
//
// Bounded memory follows from the rank being final once a call has closed:
// a closed call outranked by maxStack other closed calls of the same tree
// can never be kept, so it is dropped at once; likewise a closed top-level
// call outranked by max(top, maxStack) others (a later frame without enter
// may adopt all of them, and then at most maxStack of them survive).
type SlowestCalls struct {
	top, maxStack int
	keepRoots     int
	pruneAt       int

	pending   [][]*callNode // pending[d]: closed calls at depth d awaiting their caller
	childMax  []uint64      // childMax[d]: largest eff among pending[d]
	openNodes int           // closed calls in the tree of the open top-level call
	// floor is the rank of the last of the maxStack calls the open tree's
	// last trim kept (floorSet: there was one): a call that closes below
	// it can never be kept, nor can a call inside it, so it is dropped
	// without a node (most calls of a long tree).
	floorEff uint64
	floorSeq int64
	floorSet bool
	roots    []*callNode // closed top-level calls still in the running
	topLevel int64       // top-level calls in the forest so far
}

// NewSlowestCalls keeps the `top` slowest top-level calls, each trimmed to
// `maxStack` calls (both at least 1).
func NewSlowestCalls(top, maxStack int) *SlowestCalls {
	top, maxStack = max(top, 1), max(maxStack, 1)
	return &SlowestCalls{
		top:       top,
		maxStack:  maxStack,
		keepRoots: max(top, maxStack),
		pruneAt:   maxStack + max(1024, 3*maxStack),
	}
}

// Add takes frames in the order a Pairer emits them.
func (s *SlowestCalls) Add(f Frame) {
	if f.NoEnter {
		node := &callNode{frame: f, eff: f.Cost()}
		// The buffer started inside this call: it encloses every call so far,
		// and nothing is open (the Pairer only reports these on an empty stack).
		node.children = s.roots
		node.eff = max(node.eff, s.level(0))
		s.roots = []*callNode{node}
		s.childMax[0] = node.eff
		s.topLevel = 1
		s.floorSet = false
		s.trimTree(node)
		return
	}
	d := f.Depth
	s.ensureDepth(d + 1)
	if eff := max(f.Cost(), s.childMax[d+1]); d > 0 && s.floorSet && (eff < s.floorEff || eff == s.floorEff && f.Seq > s.floorSeq) {
		s.pending[d+1], s.childMax[d+1] = nil, 0
		s.childMax[d] = max(s.childMax[d], eff)
		return
	}
	node := &callNode{frame: f, eff: f.Cost()}
	node.children = s.pending[d+1]
	node.eff = max(node.eff, s.childMax[d+1])
	s.pending[d+1], s.childMax[d+1] = nil, 0
	if d == 0 {
		s.openNodes = 0
		s.floorSet = false
		s.trimTree(node)
		s.roots = append(s.roots, node)
		s.childMax[0] = max(s.childMax[0], node.eff)
		s.topLevel++
		if len(s.roots) > 2*s.keepRoots {
			s.roots = keepTopInOrder(s.roots, s.keepRoots)
		}
		return
	}
	s.pending[d] = append(s.pending[d], node)
	s.childMax[d] = max(s.childMax[d], node.eff)
	s.openNodes++
	if s.openNodes > s.pruneAt {
		s.trimOpenTree()
	}
}

func (s *SlowestCalls) level(d int) uint64 {
	s.ensureDepth(d)
	return s.childMax[d]
}

func (s *SlowestCalls) ensureDepth(d int) {
	for len(s.pending) <= d {
		s.pending = append(s.pending, nil)
		s.childMax = append(s.childMax, 0)
	}
}

// trimTree trims a closed call's tree to maxStack calls.
func (s *SlowestCalls) trimTree(root *callNode) {
	trimForest([]*callNode{root}, s.maxStack)
}

// trimOpenTree drops the closed calls of the open top-level call that can no
// longer be among its maxStack costliest.
func (s *SlowestCalls) trimOpenTree() {
	var forest []*callNode
	for d := 1; d < len(s.pending); d++ {
		forest = append(forest, s.pending[d]...)
	}
	var last *callNode
	s.openNodes, last = markTopLast(forest, s.maxStack)
	if last != nil {
		s.floorEff, s.floorSeq, s.floorSet = last.eff, last.frame.Seq, true
	}
	for d := 1; d < len(s.pending); d++ {
		s.pending[d] = filterKept(s.pending[d])
	}
}

// trimForest keeps the n best-ranked calls of a forest (a rank-closed set:
// every kept call's caller is kept) and returns the remaining roots.
func trimForest(forest []*callNode, n int) []*callNode {
	markTop(forest, n)
	return filterKept(forest)
}

// markTop sets kept on the n best-ranked nodes of the forest and clears it
// on the rest; it returns the number kept.
func markTop(forest []*callNode, n int) int {
	kept, _ := markTopLast(forest, n)
	return kept
}

// markTopLast is markTop, and the last-ranked of the kept when more than n
// were there (nil otherwise).
func markTopLast(forest []*callNode, n int) (int, *callNode) {
	var all []*callNode
	var walk func([]*callNode)
	walk = func(nodes []*callNode) {
		for _, c := range nodes {
			c.kept = false
			all = append(all, c)
			walk(c.children)
		}
	}
	walk(forest)
	var last *callNode
	if len(all) > n {
		slices.SortFunc(all, compareRank)
		all = all[:n]
		last = all[n-1]
	}
	for _, c := range all {
		c.kept = true
	}
	return len(all), last
}

// filterKept removes unkept nodes from the list and, recursively, from the
// children of kept ones.
func filterKept(nodes []*callNode) []*callNode {
	out := nodes[:0]
	for _, c := range nodes {
		if c.kept {
			c.children = filterKept(c.children)
			out = append(out, c)
		}
	}
	clear(nodes[len(out):])
	return out
}

// keepTopInOrder keeps the n best-ranked nodes, in their original order.
func keepTopInOrder(nodes []*callNode, n int) []*callNode {
	if len(nodes) <= n {
		return nodes
	}
	ranked := slices.Clone(nodes)
	slices.SortFunc(ranked, compareRank)
	for _, c := range nodes {
		c.kept = false
	}
	for _, c := range ranked[:n] {
		c.kept = true
	}
	out := nodes[:0]
	for _, c := range nodes {
		if c.kept {
			out = append(out, c)
		}
	}
	clear(nodes[len(out):])
	return out
}

// TopLevelCalls is the number of top-level calls in the forest so far.
func (s *SlowestCalls) TopLevelCalls() int64 { return s.topLevel }

// Stacks returns the slowest top-level calls, slowest first, as Matrix-style
// stack lines. Call it after the Pairer has finished.
func (s *SlowestCalls) Stacks() []Stack {
	ranked := slices.Clone(s.roots)
	slices.SortFunc(ranked, compareRank)
	if len(ranked) > s.top {
		ranked = ranked[:s.top]
	}
	stacks := make([]Stack, 0, len(ranked))
	for _, root := range ranked {
		lines := appendMergedLines(nil, []*callNode{root}, 0)
		stacks = append(stacks, Stack{Lines: lines, Key: KeyMethods(lines)})
	}
	return stacks
}

// appendMergedLines writes the tree in pre-order. Consecutive calls of the
// same method under the same caller become one line with a count and the
// summed cost (as Matrix reports loops); their callees are merged likewise.
func appendMergedLines(lines []StackLine, nodes []*callNode, depth int) []StackLine {
	for i := 0; i < len(nodes); {
		j := i + 1
		for j < len(nodes) && nodes[j].frame.MethodID == nodes[i].frame.MethodID {
			j++
		}
		line := StackLine{Depth: depth, MethodID: nodes[i].frame.MethodID, Count: j - i}
		var callees []*callNode
		for _, n := range nodes[i:j] {
			line.Cost += int64(n.frame.Cost())
			line.Unclosed = line.Unclosed || n.frame.Unclosed
			line.NoEnter = line.NoEnter || n.frame.NoEnter
			callees = append(callees, n.children...)
		}
		lines = append(lines, line)
		lines = appendMergedLines(lines, callees, depth+1)
		i = j
	}
	return lines
}
