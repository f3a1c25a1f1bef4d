package diff

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"slices"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/tracebeat/tracebeat/profile"
)

// A differential flame graph, as async-profiler draws one: NEW's call
// paths, each as wide as its total time (the median over NEW's runs, as
// the table's figures are), on its caller, the root at the bottom;
// coloured by its method's verdict, the table's: red regressed, blue
// improved, the deeper the larger the change; yellow new; grey the same,
// whatever its path did. Methods gone from NEW are listed under it.

const (
	flameWidth  = 1600
	flameRow    = 16
	flameHeader = 48
	flameMaxPx  = 32767 // what image viewers take
)

// pathNode is one call path of both sides: its times in each run (ns, 0 in
// a run that did not take it), then the medians.
type pathNode struct {
	name                           string
	baseRuns, newRuns              [][3]float64 // total, self, calls a run
	baseTotal, baseSelf, baseCalls float64
	newTotal, newSelf, newCalls    float64
	children                       map[string]*pathNode
}

func (n *pathNode) child(name string) *pathNode {
	c := n.children[name]
	if c == nil {
		if n.children == nil {
			n.children = map[string]*pathNode{}
		}
		c = &pathNode{name: name}
		n.children[name] = c
	}
	return c
}

// mergeTrees adds each side's trees into one: each path's medians over its
// side's runs (a run that did not take the path counts as 0).
func mergeTrees(base, next Side) *pathNode {
	root := &pathNode{}
	var add func(into *pathNode, n *profile.Node, run, runs int, isNew bool)
	add = func(into *pathNode, n *profile.Node, run, runs int, isNew bool) {
		for _, c := range n.Children {
			p := into.child(c.Name)
			vals := &p.baseRuns
			if isNew {
				vals = &p.newRuns
			}
			if *vals == nil {
				*vals = make([][3]float64, runs)
			}
			(*vals)[run] = [3]float64{float64(c.Stat.Total), float64(c.Stat.Self), float64(c.Stat.Calls)}
			add(p, c, run, runs, isNew)
		}
	}
	for i, p := range base.Runs {
		add(root, p.Tree, i, len(base.Runs), false)
	}
	for i, p := range next.Runs {
		add(root, p.Tree, i, len(next.Runs), true)
	}
	var settle func(n *pathNode)
	settle = func(n *pathNode) {
		n.baseTotal, n.baseSelf, n.baseCalls = medians(n.baseRuns)
		n.newTotal, n.newSelf, n.newCalls = medians(n.newRuns)
		n.baseRuns, n.newRuns = nil, nil
		for _, c := range n.children {
			settle(c)
		}
	}
	for _, c := range root.children {
		settle(c)
		root.newTotal += c.newTotal
		root.baseTotal += c.baseTotal
	}
	return root
}

// medians is each of the three values' median over the runs.
func medians(runs [][3]float64) (total, self, calls float64) {
	if len(runs) == 0 {
		return 0, 0, 0
	}
	col := make([]float64, len(runs))
	var out [3]float64
	for k := range out {
		for i, r := range runs {
			col[i] = r[k]
		}
		slices.Sort(col)
		if len(col)%2 == 1 {
			out[k] = col[len(col)/2]
		} else {
			out[k] = (col[len(col)/2-1] + col[len(col)/2]) / 2
		}
	}
	return out[0], out[1], out[2]
}

// verdicts are the table's, by name, for the colours.
type verdicts map[string]Method

func verdictsOf(r *Result) verdicts {
	v := verdicts{}
	for _, m := range r.Methods {
		v[m.Name] = m
	}
	return v
}

// gone lists the methods only BASE called, the costliest first, as lines.
func (r *Result) goneLines(limit int) []string {
	var out []string
	n := 0
	for _, m := range r.Methods {
		if m.Status != Gone {
			continue
		}
		n++
		if len(out) < limit {
			out = append(out, fmt.Sprintf("gone: %s (BASE: %d calls, self %.3f ms, total %.3f ms)", m.Name, m.CallsBase, m.SelfMsBase, m.TotalMsBase))
		}
	}
	if n > limit {
		out = append(out, fmt.Sprintf("and %d more gone", n-limit))
	}
	return out
}

// Colours of the verdicts.
var (
	colorNew  = color.RGBA{240, 210, 60, 255}
	colorSame = color.RGBA{215, 215, 210, 255}
)

// verdictColor colours a method by its verdict: red regressed, blue
// improved, the deeper the larger its change (100% and more the deepest),
// yellow new, grey the same.
func verdictColor(m Method, ok bool) color.RGBA {
	if !ok {
		return colorSame
	}
	switch m.Status {
	case New:
		return colorNew
	case Regressed, Improved:
		k := min(abs(m.DeltaPercent)/100, 1)
		light := uint8(200 - 140*k)
		if m.Status == Regressed {
			return color.RGBA{235, light, light, 255}
		}
		return color.RGBA{light, light, 235, 255}
	}
	return colorSame
}

// WriteFlamePNG draws the differential flame graph of the two sides, in
// the colours of res's verdicts, with a legend and the gone methods.
func WriteFlamePNG(w io.Writer, res *Result, base, next Side, title string) error {
	root := mergeTrees(base, next)
	v := verdictsOf(res)
	gone := res.goneLines(5)
	header := flameHeader + 15*len(gone)
	depth := treeDepth(root)
	rows := min(depth, (flameMaxPx-header)/flameRow)
	height := header + rows*flameRow + 4
	img := image.NewRGBA(image.Rect(0, 0, flameWidth, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{250, 250, 245, 255}), image.Point{}, draw.Src)
	text(img, 8, 16, title, color.RGBA{0, 0, 0, 255})
	x := 8
	x = legend(img, x, "width: NEW's total time (median);", color.RGBA{})
	x = legend(img, x, "regressed", verdictColor(Method{Status: Regressed, DeltaPercent: 100}, true))
	x = legend(img, x, "improved", verdictColor(Method{Status: Improved, DeltaPercent: -100}, true))
	x = legend(img, x, "new", colorNew)
	legend(img, x, "the same (the table's verdicts)", colorSame)
	for i, g := range gone {
		text(img, 8, 48+15*i, g, color.RGBA{60, 60, 60, 255})
	}
	if root.newTotal > 0 {
		scale := float64(flameWidth) / root.newTotal
		drawNodes(img, root, 0, 0, scale, height-4, rows, v)
	}
	if rows < depth {
		text(img, 900, 16, fmt.Sprintf("(%d of %d levels drawn)", rows, depth), color.RGBA{120, 0, 0, 255})
	}
	return png.Encode(w, img)
}

// legend draws a swatch of c (none when c is zero) and its label at x on
// the legend's line; it returns where the next goes.
func legend(img *image.RGBA, x int, label string, c color.RGBA) int {
	if c.A != 0 {
		draw.Draw(img, image.Rect(x, 24, x+14, 36), image.NewUniform(c), image.Point{}, draw.Src)
		x += 18
	}
	text(img, x, 34, label, color.RGBA{60, 60, 60, 255})
	return x + 7*len([]rune(label)) + 12
}

func treeDepth(n *pathNode) int {
	d := 0
	for _, c := range n.children {
		d = max(d, treeDepth(c))
	}
	if n.name != "" {
		d++
	}
	return d
}

// drawNodes draws n's children at level, left to right by name, from x.
func drawNodes(img *image.RGBA, n *pathNode, level int, x, scale float64, bottom, rows int, v verdicts) {
	if level >= rows {
		return
	}
	names := make([]string, 0, len(n.children))
	for name := range n.children {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		c := n.children[name]
		width := c.newTotal * scale
		if width < 0.5 {
			x += width
			continue // narrower than half a pixel: its time stays in its caller's width
		}
		y1 := bottom - level*flameRow
		r := image.Rect(int(x), y1-flameRow+1, int(x+width), y1)
		if r.Dx() < 1 {
			r.Max.X = r.Min.X + 1
		}
		m, ok := v[c.name]
		draw.Draw(img, r, image.NewUniform(verdictColor(m, ok)), image.Point{}, draw.Src)
		if chars := int(width-4) / 7; chars >= 3 {
			label := []rune(c.name)
			if len(label) > chars {
				label = append(label[:chars-1], '…')
			}
			text(img, r.Min.X+2, y1-3, string(label), color.RGBA{0, 0, 0, 255})
		}
		drawNodes(img, c, level+1, x, scale, bottom, rows, v)
		x += width
	}
}

func text(img *image.RGBA, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
