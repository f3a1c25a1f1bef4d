package diff

import (
	"bufio"
	"io"
	"math"
	"slices"

	"github.com/tracebeat/tracebeat/decode/htmlview"
)

// WriteHTML writes the differential flame graph as decode's interactive
// page (decode/htmlview): NEW's call paths, each coloured by its method's
// verdict in res (the table's), searchable and zoomable, BASE's figures in
// each frame's tooltip; times are the medians over each side's runs, as
// the table's are. The page has a legend and lists the gone methods.
func WriteHTML(w io.Writer, res *Result, base, next Side, title string, notes []string) error {
	root := mergeTrees(base, next)
	meta := htmlview.Meta{Title: title, Notes: notes, Diff: true, Gone: res.goneLines(50)}
	v := verdictsOf(res)
	index := map[string]int{}
	name := func(s string) int64 {
		i, ok := index[s]
		if !ok {
			i = len(meta.Names)
			index[s] = i
			meta.Names = append(meta.Names, s)
			m, ok := v[s]
			status := ""
			if ok {
				status = m.Status
			}
			meta.Status = append(meta.Status, status)
			meta.Change = append(meta.Change, m.DeltaPercent)
		}
		return int64(i)
	}
	count := 0
	var walk func(n *pathNode, parent int)
	walk = func(n *pathNode, parent int) {
		keys := make([]string, 0, len(n.children))
		for k := range n.children {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c := n.children[k]
			if c.newTotal <= 0 {
				continue // a path only BASE took: NEW's graph has no place for it (the gone list has the methods)
			}
			count++
			me := count
			meta.Tree = append(meta.Tree, int64(parent), name(c.name), round(c.newTotal), round(c.newSelf), round(c.newCalls),
				round(c.baseTotal), round(c.baseSelf), round(c.baseCalls))
			walk(c, me)
		}
	}
	walk(root, 0)
	bw := bufio.NewWriter(w)
	bw.WriteString(htmlview.Head(title))
	if err := htmlview.WriteTail(bw, meta); err != nil {
		return err
	}
	return bw.Flush()
}

func round(x float64) int64 { return int64(math.Round(x)) }
