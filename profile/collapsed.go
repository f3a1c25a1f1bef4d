package profile

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// WriteCollapsed writes the call paths as folded stacks, the input of
// FlameGraph, inferno, speedscope and Perfetto: a line per path, its
// methods root first joined by ';', a space, and its self time in whole
// microseconds (a path whose self time rounds to 0 is left out: a weight
// of 0 draws nothing). Paths come in name order, so the output is the same
// for the same trace. The format has no place for notes: when the trace
// lost records, every path starts with a frame that says so, which a
// flame graph draws as its bottom row, across the whole width.
func (p *Profile) WriteCollapsed(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var path []string
	if len(p.Missing) > 0 {
		note := "[tracebeat: " + p.Missing[0]
		if len(p.Missing) > 1 {
			note += fmt.Sprintf(" (and %d more notes)", len(p.Missing)-1)
		}
		path = append(path, strings.NewReplacer(";", ":", "\n", " ").Replace(note)+"]")
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		for _, name := range childNames(n) {
			c := n.Children[name]
			// A ';' would split the frame; FlameGraph's own stackcollapse
			// tools replace it too.
			path = append(path, strings.ReplaceAll(strings.ReplaceAll(name, ";", ":"), "\n", " "))
			if us := (c.Stat.Self + 500) / 1000; us > 0 {
				bw.WriteString(strings.Join(path, ";"))
				bw.WriteByte(' ')
				bw.WriteString(strconv.FormatInt(us, 10))
				bw.WriteByte('\n')
			}
			walk(c)
			path = path[:len(path)-1]
		}
	}
	walk(p.Tree)
	return bw.Flush()
}

// childNames is n's children's names, sorted.
func childNames(n *Node) []string {
	names := make([]string, 0, len(n.Children))
	for name := range n.Children {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
