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
// paths, each as wide as its total time (the mean over NEW's runs), on
// its caller, the root at the bottom; coloured by the change of its self
// time from BASE: red for more, blue for less, the deeper the larger the
// change; yellow for a path BASE never took; grey for no change.

const (
	flameWidth  = 1600
	flameRow    = 16
	flameHeader = 48
	flameMaxPx  = 32767 // what image viewers take
)

// pathNode is one call path of both sides, times in mean nanoseconds a run.
type pathNode struct {
	name                           string
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

// mergeTrees adds each side's trees into one, as means over its runs.
func mergeTrees(base, next Side) *pathNode {
	root := &pathNode{}
	var add func(into *pathNode, n *profile.Node, runs float64, isNew bool)
	add = func(into *pathNode, n *profile.Node, runs float64, isNew bool) {
		for _, c := range n.Children {
			p := into.child(c.Name)
			if isNew {
				p.newTotal += float64(c.Stat.Total) / runs
				p.newSelf += float64(c.Stat.Self) / runs
				p.newCalls += float64(c.Stat.Calls) / runs
			} else {
				p.baseTotal += float64(c.Stat.Total) / runs
				p.baseSelf += float64(c.Stat.Self) / runs
				p.baseCalls += float64(c.Stat.Calls) / runs
			}
			add(p, c, runs, isNew)
		}
	}
	for _, p := range base.Runs {
		add(root, p.Tree, float64(len(base.Runs)), false)
	}
	for _, p := range next.Runs {
		add(root, p.Tree, float64(len(next.Runs)), true)
	}
	for _, c := range root.children {
		root.newTotal += c.newTotal
		root.baseTotal += c.baseTotal
	}
	return root
}

// WriteFlamePNG draws the differential flame graph of the two sides.
func WriteFlamePNG(w io.Writer, base, next Side, title string) error {
	root := mergeTrees(base, next)
	depth := treeDepth(root)
	rows := min(depth, (flameMaxPx-flameHeader)/flameRow)
	height := flameHeader + rows*flameRow + 4
	img := image.NewRGBA(image.Rect(0, 0, flameWidth, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{250, 250, 245, 255}), image.Point{}, draw.Src)
	text(img, 8, 16, title, color.RGBA{0, 0, 0, 255})
	text(img, 8, 34, "width: NEW's total time; red: more self time than BASE, blue: less, yellow: a path BASE never took", color.RGBA{60, 60, 60, 255})
	if root.newTotal > 0 {
		scale := float64(flameWidth) / root.newTotal
		drawNodes(img, root, 0, 0, scale, height-4, rows)
	}
	if rows < depth {
		text(img, 900, 16, fmt.Sprintf("(%d of %d levels drawn)", rows, depth), color.RGBA{120, 0, 0, 255})
	}
	return png.Encode(w, img)
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
func drawNodes(img *image.RGBA, n *pathNode, level int, x, scale float64, bottom, rows int) {
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
		draw.Draw(img, r, image.NewUniform(changeColor(c)), image.Point{}, draw.Src)
		if chars := int(width-4) / 7; chars >= 3 {
			label := []rune(c.name)
			if len(label) > chars {
				label = append(label[:chars-1], '…')
			}
			text(img, r.Min.X+2, y1-3, string(label), color.RGBA{0, 0, 0, 255})
		}
		drawNodes(img, c, level+1, x, scale, bottom, rows)
		x += width
	}
}

// changeColor colours a path by the change of its self time.
func changeColor(n *pathNode) color.RGBA {
	if n.baseTotal == 0 {
		return color.RGBA{240, 210, 60, 255} // only NEW
	}
	d := n.newSelf - n.baseSelf
	ref := max(n.newSelf, n.baseSelf)
	if ref <= 0 || abs(d) < ref*0.02 {
		return color.RGBA{215, 215, 210, 255}
	}
	k := min(abs(d)/ref, 1)
	light := uint8(235 - 175*k)
	if d > 0 {
		return color.RGBA{235, light, light, 255}
	}
	return color.RGBA{light, light, 235, 255}
}

func text(img *image.RGBA, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
