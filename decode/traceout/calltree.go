package traceout

// CallTree is the call tree of every call of a trace, merged over its
// threads, as the page's flame graph takes it (htmlview.Meta's Tree): 8
// numbers a node in Nodes: the parent's number (0: the root; nodes are
// numbered from 1 in the order they are made, so a parent's number is
// below its children's), the name's index, the total, self (ns) and
// calls, and three 0s (a diff's base). The page of levels of detail and
// tracebeat view's index both keep one.
type CallTree struct {
	Nodes []int64
	index map[[2]int32]int32
}

// Node is name's node under parent, made when new.
func (x *CallTree) Node(parent, name int32) int32 {
	if x.index == nil {
		x.index = map[[2]int32]int32{}
	}
	k := [2]int32{parent, name}
	if n, ok := x.index[k]; ok {
		return n
	}
	x.Nodes = append(x.Nodes, int64(parent), int64(name), 0, 0, 0, 0, 0, 0)
	n := int32(len(x.Nodes) / 8)
	x.index[k] = n
	return n
}

// Add counts a call of dur ns at node under parent: its total and calls,
// and its self time, less from its parent's.
func (x *CallTree) Add(node, parent int32, dur int64) {
	x.Nodes[8*int(node-1)+2] += dur
	x.Nodes[8*int(node-1)+3] += dur
	x.Nodes[8*int(node-1)+4]++
	if parent > 0 {
		x.Nodes[8*int(parent-1)+3] -= dur
	}
}

// Done lets the lookup of nodes go: the tree takes no more calls.
func (x *CallTree) Done() { x.index = nil }
