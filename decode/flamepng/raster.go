package flamepng

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"slices"

	"github.com/tracebeat/tracebeat/internal/english"
)

// grid is one thread's picture before colours: for each depth row and
// pixel column, the slice drawn there. A slice at least a pixel wide owns
// its pixels; of the slices narrower than a pixel, the one that covers
// most of its pixel is drawn there (the picture says how many were
// merged so).
type grid struct {
	key    trackKey
	info   *trackInfo
	rows   int
	owner  []uint32  // name index + 1; 0: nothing
	cover  []float32 // how much of the pixel the owner covers; +Inf: a wide slice
	edge   []uint8   // edgeDark or edgeRed: the right edge of a slice
	labels []label
}

const (
	edgeDark = 1
	edgeRed  = 2
)

type label struct {
	row, x0, x1 int
	name        uint32
}

// Render draws the collected slices as a PNG and returns the threads whose
// deeper calls it did not draw.
func (c *Collector) Render(w io.Writer, opts Options) ([]Cut, error) {
	width := opts.Width
	if width <= 0 {
		width = 1600
	}
	maxRows := opts.MaxRows
	if maxRows <= 0 {
		maxRows = 40
	}
	keys := make([]trackKey, 0, len(c.order))
	for _, k := range c.order {
		if c.tracks[k].slices > 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, errors.New("nothing to draw: no slices in the trace")
	}
	slices.SortFunc(keys, func(a, b trackKey) int {
		if a.pid != b.pid {
			return cmpInt(a.pid, b.pid)
		}
		return cmpInt(a.tid, b.tid)
	})
	minNs, maxNs := c.minNs, c.maxNs
	if maxNs <= minNs {
		maxNs = minNs + 1
	}
	plotW := width - 2*margin
	cols := plotW + 1
	grids := make([]*grid, len(c.order)) // by track index; nil: not drawn
	byIndex := make([]*trackInfo, len(c.order))
	for _, k := range c.order {
		byIndex[c.tracks[k].index] = c.tracks[k]
	}
	for _, k := range keys {
		t := c.tracks[k]
		rows := min(t.depth()+1, maxRows)
		grids[t.index] = &grid{key: k, info: t, rows: rows, owner: make([]uint32, rows*cols),
			cover: make([]float32, rows*cols), edge: make([]uint8, rows*cols)}
	}
	span := float64(maxNs - minNs)
	var merged int64
	err := c.each(byIndex, func(track uint32, depth int, name uint32, unclosed bool, startNs, endNs int64) {
		g := grids[track]
		if g == nil || depth < 0 || depth >= g.rows {
			return
		}
		fx0 := float64(startNs-minNs) / span * float64(plotW)
		fx1 := float64(endNs-minNs) / span * float64(plotW)
		x0, x1 := int(math.Round(fx0)), int(math.Round(fx1))
		row := depth * cols
		if x1 > x0 {
			for x := x0; x < x1; x++ {
				g.owner[row+x], g.cover[row+x] = name+1, float32(math.Inf(1))
			}
			if x1-x0 >= 2 {
				g.edge[row+x1-1] = edgeDark
			}
			if unclosed {
				g.edge[row+x1-1] = edgeRed
			}
			if (x1-x0-4)/7 >= 2 {
				g.labels = append(g.labels, label{row: depth, x0: x0, x1: x1, name: name})
			}
			return
		}
		merged++
		x := min(x0, plotW)
		if cov := float32(fx1 - fx0); g.owner[row+x] == 0 || cov > g.cover[row+x] {
			g.owner[row+x], g.cover[row+x] = name+1, cov
		}
		if unclosed {
			g.edge[row+x] = edgeRed
		}
	})
	if err != nil {
		return nil, err
	}

	notes := noteLines(opts.Notes, width)
	top := headerH + len(notes)*15
	height := top
	for _, k := range keys {
		t := c.tracks[k]
		height += rowHeight + min(t.depth()+1, maxRows)*rowHeight + margin
		if t.depth() >= maxRows {
			height += rowHeight // the line that says what was cut
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	minUs, maxUs := float64(minNs)/1e3, float64(maxNs)/1e3
	x := func(us float64) int { return margin + int(math.Round((us-minUs)/(maxUs-minUs)*float64(plotW))) }
	text(img, margin, 14, opts.Title, color.Black)
	if merged > 0 {
		text(img, margin, 29, fmt.Sprintf("%s, %d of them narrower than a pixel: such a pixel shows the one that covers most of it",
			english.Count(c.count, "slice"), merged), color.RGBA{0x55, 0x55, 0x55, 0xff})
	}
	for i, n := range notes {
		text(img, margin, 44+15*i, n, color.RGBA{0xa0, 0x10, 0x10, 0xff})
	}
	drawAxis(img, minUs, maxUs, x, height, top)

	colors := make([]color.RGBA, len(c.list))
	for i, n := range c.list {
		colors[i] = colorFor(n)
	}
	var cuts []Cut
	y := top
	for _, k := range keys {
		g := grids[c.tracks[k].index]
		label := fmt.Sprintf("pid %d  tid %d", k.pid, k.tid)
		if g.info.name != "" {
			label += "  " + g.info.name
		}
		text(img, margin, y+12, label, color.RGBA{0x33, 0x33, 0x33, 0xff})
		y += rowHeight
		g.paint(img, y, cols, colors)
		for _, l := range g.labels {
			text(img, margin+l.x0+2, y+l.row*rowHeight+12, fitLabel(c.list[l.name], (l.x1-l.x0-4)/7), color.Black)
		}
		y += g.rows * rowHeight
		if deepest := g.info.depth(); deepest >= maxRows {
			cuts = append(cuts, Cut{Track: label, MaxDepth: deepest, Rows: maxRows})
			note := fmt.Sprintf("calls deeper than %d rows not drawn (deepest at depth %d)", maxRows, deepest+1)
			if opts.CutHint != nil {
				note += ": " + opts.CutHint(deepest)
			}
			text(img, margin, y+12, note, color.RGBA{0xc0, 0x10, 0x10, 0xff})
			y += rowHeight
		}
		y += margin
	}
	return cuts, png.Encode(w, img)
}

// paint colours the grid's cells into img, its first row at top.
func (g *grid) paint(img *image.RGBA, top, cols int, colors []color.RGBA) {
	red := color.RGBA{0xd0, 0x10, 0x10, 0xff}
	for r := 0; r < g.rows; r++ {
		for x := 0; x < cols; x++ {
			i := r*cols + x
			if g.owner[i] == 0 {
				continue
			}
			c := colors[g.owner[i]-1]
			switch g.edge[i] {
			case edgeDark:
				c = darker(c)
			case edgeRed:
				c = red
			}
			px := margin + x
			for y := top + r*rowHeight; y < top+(r+1)*rowHeight-1; y++ {
				o := img.PixOffset(px, y)
				img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = c.R, c.G, c.B, c.A
			}
		}
	}
}
