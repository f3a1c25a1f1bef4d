package flamepng

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pixel tests draw on a plot 400 pixels wide; a scene's slices are
// given in pixels from its start, which is 1 ms into the trace so that
// every time is taken relative to the first.
const (
	plot400   = 400
	width400  = 2*margin + plot400
	sceneBase = 1_000_000 // ns
)

var (
	white = color.RGBA{0xff, 0xff, 0xff, 0xff}
	red   = color.RGBA{0xd0, 0x10, 0x10, 0xff}
	grey  = color.RGBA{0xe4, 0xe4, 0xe4, 0xff}
	ink55 = color.RGBA{0x55, 0x55, 0x55, 0xff} // the axis and the merge note
	ink33 = color.RGBA{0x33, 0x33, 0x33, 0xff} // track labels
	black = color.RGBA{0, 0, 0, 0xff}          // slice labels and the title
)

type sceneSlice struct {
	name       string
	start, end float64 // pixels from the plot's left
	depth      int
	unclosed   bool
}

// renderScene draws what add gives on one thread "main" and decodes the
// picture (400 pixels of plot unless opts says).
func renderScene(t *testing.T, opts Options, add func(c *Collector)) *image.RGBA {
	t.Helper()
	c, err := NewCollector(t.TempDir())
	require.NoError(t, err)
	defer c.Close()
	c.Thread(1, 1, "main")
	add(c)
	var out bytes.Buffer
	if opts.Width == 0 {
		opts.Width = width400
	}
	_, err = c.Render(&out, opts)
	require.NoError(t, err)
	img, err := png.Decode(&out)
	require.NoError(t, err)
	return toRGBA(img)
}

// toRGBA gives a decoded picture's pixels as 8-bit RGBA.
func toRGBA(img image.Image) *image.RGBA {
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return rgba
}

func addPixels(t *testing.T, c *Collector, nsPerPixel float64, s sceneSlice) {
	t.Helper()
	start := sceneBase + int64(math.Round(s.start*nsPerPixel))
	end := sceneBase + int64(math.Round(s.end*nsPerPixel))
	require.NoError(t, c.Slice(1, 1, s.name, start, end, s.depth, s.unclosed))
}

func at(img *image.RGBA, x, y int) color.RGBA { return img.RGBAAt(x, y) }

// inkOf lists the pixels of colour c inside r.
func inkOf(img *image.RGBA, r image.Rectangle, c color.RGBA) []image.Point {
	var pts []image.Point
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				pts = append(pts, image.Point{x, y})
			}
		}
	}
	return pts
}

// textInk lists the pixels that the 7x13 face inks for each string at
// its baseline point, on a picture of the given bounds, within r.
func textInk(bounds, r image.Rectangle, at map[image.Point]string) []image.Point {
	img := image.NewRGBA(bounds)
	for p, s := range at {
		text(img, p.X, p.Y, s, black)
	}
	return inkOf(img, r, black)
}

// sameInk compares two lists of inked pixels and names a few that differ.
func sameInk(t *testing.T, want, got []image.Point, what string) {
	t.Helper()
	in := func(ps []image.Point) map[image.Point]bool {
		m := map[image.Point]bool{}
		for _, p := range ps {
			m[p] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var missing, extra []image.Point
	for _, p := range want {
		if !g[p] {
			missing = append(missing, p)
		}
	}
	for _, p := range got {
		if !w[p] {
			extra = append(extra, p)
		}
	}
	if len(missing)+len(extra) > 0 {
		t.Errorf("%s: %d pixels not inked (%v), %d inked that should not be (%v)", what,
			len(missing), missing[:min(len(missing), 5)], len(extra), extra[:min(len(extra), 5)])
	}
}

// rowTop is the first line of depth row r of the first track.
func rowTop(r int) int { return headerH + rowHeight + r*rowHeight }

// TestRenderPixels: one thread at 25 ns a pixel, 1 ms into the trace.
// Each slice owns the columns from its start up to its end; a slice two
// or more pixels wide ends in a darker column, an unclosed one in red;
// slices narrower than a pixel share it and the one covering most of it
// (the first, on a tie) is drawn; a row is 15 lines and a white one; a
// slice at least 18 pixels wide carries its name, shortened to what fits
// in 7-pixel characters after 2 pixels of room on each side.
func TestRenderPixels(t *testing.T) {
	const ns = 25
	scene := []sceneSlice{
		{name: "outer", start: 0, end: 400, depth: 0},
		{name: "a", start: 40, end: 80, depth: 1},
		{name: "b", start: 100, end: 102, depth: 1},
		{name: "c", start: 120, end: 121, depth: 1},
		{name: "u", start: 140, end: 160, depth: 1, unclosed: true},
		{name: "lab", start: 200, end: 218, depth: 2},
		{name: "nolabel", start: 240, end: 257, depth: 2},
		{name: "eightch8", start: 280, end: 333, depth: 2},
		{name: "n1", start: 299.6, end: 300, depth: 3},
		{name: "n2", start: 300, end: 300.4, depth: 3},
		{name: "nu", start: 319.8, end: 320.2, depth: 3, unclosed: true},
		{name: "n3", start: 339.6, end: 339.8, depth: 3},
		{name: "n4", start: 339.8, end: 340.4, depth: 3},
	}
	img := renderScene(t, Options{Title: "scene"}, func(c *Collector) {
		for _, s := range scene {
			addPixels(t, c, ns, s)
		}
	})
	require.Equal(t, image.Rect(0, 0, width400, headerH+rowHeight+4*rowHeight+margin), img.Bounds())

	fill := func(name string) color.RGBA { return colorFor(name) }
	edge := func(name string) color.RGBA { return darker(colorFor(name)) }
	cells := []struct {
		depth, col int
		want       color.RGBA
	}{
		{0, 0, fill("outer")}, {0, 50, fill("outer")}, {0, 398, fill("outer")}, {0, 399, edge("outer")}, {0, 400, white},
		{1, 39, white}, {1, 40, fill("a")}, {1, 78, fill("a")}, {1, 79, edge("a")}, {1, 80, white},
		{1, 100, fill("b")}, {1, 101, edge("b")}, {1, 102, white},
		{1, 119, white}, {1, 120, fill("c")}, {1, 121, white},
		{1, 158, fill("u")}, {1, 159, red}, {1, 160, white},
		{2, 217, edge("lab")}, {2, 256, edge("nolabel")}, {2, 332, edge("eightch8")},
		{3, 299, white}, {3, 300, fill("n1")}, {3, 301, white},
		{3, 320, red},
		{3, 340, fill("n4")},
	}
	// Behind the slices: white, and the axis lines every 40 columns.
	background := func(col int) color.RGBA {
		if col%40 == 0 {
			return grey
		}
		return white
	}
	for _, c := range cells {
		x := margin + c.col
		if c.want == white {
			c.want = background(c.col)
		}
		assert.Equal(t, c.want, at(img, x, rowTop(c.depth)), "depth %d column %d, first line", c.depth, c.col)
		assert.Equal(t, c.want, at(img, x, rowTop(c.depth)+rowHeight-2), "depth %d column %d, last line", c.depth, c.col)
		assert.Equal(t, background(c.col), at(img, x, rowTop(c.depth)+rowHeight-1), "depth %d column %d, the line between rows", c.depth, c.col)
	}

	// Labels: "outer" (400 wide), "a" (40 wide: room for 5), "u" (20: 2), "lab" shortened to
	// 2, "eightch8" to 7; "nolabel" (17 wide: room for 1) has none.
	labels := map[image.Point]string{}
	for _, l := range []struct {
		text       string
		col, depth int
	}{{"outer", 0, 0}, {"a", 40, 1}, {"u", 140, 1}, {"l~", 200, 2}, {"eightc~", 280, 2}} {
		labels[image.Point{margin + l.col + 2, rowTop(l.depth) + 12}] = l.text
	}
	rows := image.Rect(0, rowTop(0), width400, rowTop(4))
	sameInk(t, textInk(img.Bounds(), rows, labels), inkOf(img, rows, black), "slice labels")

	// The track's label, above its rows.
	band := image.Rect(0, headerH, width400, rowTop(0))
	sameInk(t, textInk(img.Bounds(), band, map[image.Point]string{{margin, headerH + 12}: "pid 1  tid 1  main"}),
		inkOf(img, band, ink33), "track label")

	// The header: the title, the note on merged slices, and an axis over
	// 10 us with a tick every microsecond (label 2 pixels right of its
	// line, baseline 8 above the rows; lines from 6 above the rows down).
	header := image.Rect(0, 0, width400, headerH-6)
	want := map[image.Point]string{{margin, 29}: "13 slices, 5 of them narrower than a pixel: such a pixel shows the one that covers most of it"}
	for k := range 11 {
		label := "0"
		if k > 0 {
			label = fmt.Sprintf("%d us", k)
		}
		want[image.Point{margin + 40*k + 2, headerH - 8}] = label
	}
	sameInk(t, textInk(img.Bounds(), header, want), inkOf(img, header, ink55), "merge note and axis labels")
	sameInk(t, textInk(img.Bounds(), header, map[image.Point]string{{margin, 14}: "scene"}), inkOf(img, header, black), "title")
	var lines []int
	for x := range width400 {
		switch at(img, x, headerH-6) {
		case grey:
			lines = append(lines, x)
		case white:
		default:
			t.Errorf("column %d above the rows is %v", x, at(img, x, headerH-6))
		}
	}
	assert.Equal(t, []int{10, 50, 90, 130, 170, 210, 250, 290, 330, 370, 410}, lines, "axis lines")
}

// TestRenderAxisSteps: ticks fall at 1, 2 or 5 times a power of ten, the
// finest that gives at most ten steps over the span.
func TestRenderAxisSteps(t *testing.T) {
	for _, tc := range []struct {
		spanNs int64
		step   float64 // us
	}{{7_000, 1}, {10_000, 1}, {11_000, 2}, {21_000, 5}, {51_000, 10}, {700, 0.1}} {
		t.Run(fmt.Sprint(tc.spanNs), func(t *testing.T) {
			img := renderScene(t, Options{}, func(c *Collector) {
				require.NoError(t, c.Slice(1, 1, "all", sceneBase, sceneBase+tc.spanNs, 0, false))
			})
			var lines []int
			for x := range width400 {
				if at(img, x, headerH-3) == grey {
					lines = append(lines, x)
				}
			}
			var want []int
			spanUs := float64(tc.spanNs) / 1e3
			for k := 0; float64(k)*tc.step <= spanUs+1e-9; k++ {
				want = append(want, margin+int(float64(k)*tc.step/spanUs*plot400+0.5))
			}
			assert.Equal(t, want, lines)
		})
	}
}

// TestRenderTimesInMicros: Render takes trace-event times (us).
func TestRenderTimesInMicros(t *testing.T) {
	tracks := []Track{{Pid: 1, Tid: 1, MaxDepth: 1, Slices: []Slice{
		{Name: "all", StartUs: 1000, EndUs: 1010},
		{Name: "half", StartUs: 1002.5, EndUs: 1005, Depth: 1},
	}}}
	var out bytes.Buffer
	_, err := Render(tracks, &out, Options{Width: width400})
	require.NoError(t, err)
	img, err := png.Decode(&out)
	require.NoError(t, err)
	y := rowTop(1) + 1
	pixel := func(col int) color.RGBA { return color.RGBAModel.Convert(img.At(margin+col, y)).(color.RGBA) }
	assert.Equal(t, white, pixel(99))
	assert.Equal(t, colorFor("half"), pixel(100))
	assert.Equal(t, darker(colorFor("half")), pixel(199))
	assert.Equal(t, grey, pixel(200), "past half's end: the axis line at 5 us")
}

func TestUsToNs(t *testing.T) {
	two63 := 9223372036854775.808 // us: 2^63 ns
	require.Equal(t, float64(1<<63), two63*1e3, "the case needs a time of exactly 2^63 ns")
	for _, tc := range []struct {
		us   float64
		want int64
	}{
		{1.5, 1500}, {-2.0004, -2000}, {0.0006, 1},
		{two63, 1<<63 - 1}, {1e300, 1<<63 - 1}, {-1e300, -1 << 63},
	} {
		assert.Equal(t, tc.want, usToNs(tc.us), "usToNs(%v)", tc.us)
	}
}

func TestFormatMicros(t *testing.T) {
	for _, tc := range []struct {
		us, step float64
		want     string
	}{
		{0, 1, "0"},
		{5, 1, "5 us"},
		{0.5, 0.1, "0.5 us"},
		{0.25, 0.05, "0.25 us"},
		{999, 1, "999 us"},
		{1000, 1000, "1 ms"},
		{2500, 500, "2.5 ms"},
		{999_000, 1000, "999 ms"},
		{1e6, 1e6, "1 s"},
		{1.5e6, 5e5, "1.5 s"},
		{30e6, 10e6, "30 s"},
	} {
		assert.Equal(t, tc.want, formatMicros(tc.us, tc.step), "formatMicros(%v, %v)", tc.us, tc.step)
	}
}

// TestColors: warm pastels (red high, green middling, blue low), spread
// over the range by the name, and 70% of each channel on a slice's edge.
func TestColors(t *testing.T) {
	reds, greens, blues := map[uint8]bool{}, map[uint8]bool{}, map[uint8]bool{}
	for i := range 500 {
		c := colorFor(fmt.Sprintf("app.M%d.run", i))
		require.True(t, c.R >= 0xf0, "%v", c)
		require.True(t, c.G >= 0x90 && c.G < 0xe0, "%v", c)
		require.True(t, c.B >= 0x50 && c.B < 0x90, "%v", c)
		require.Equal(t, uint8(0xff), c.A)
		reds[c.R], greens[c.G], blues[c.B] = true, true, true
	}
	assert.Len(t, reds, 16)
	assert.Greater(t, len(greens), 60)
	assert.Greater(t, len(blues), 50)
	assert.Equal(t, colorFor("x"), colorFor("x"))
	assert.Equal(t, color.RGBA{140, 70, 35, 0xff}, darker(color.RGBA{200, 100, 50, 0xff}))
	assert.Equal(t, color.RGBA{0xa8, 0x62, 0x38, 0xff}, darker(color.RGBA{0xf0, 0x90, 0x50, 0xff}))
}

// TestRenderOptionsAndTracks: the default width, a named thread without
// slices left out, threads in pid then tid order, a trace of one instant,
// lifts before a thread's first slice, a track cut only when its deepest
// call lies past the rows drawn.
func TestRenderOptionsAndTracks(t *testing.T) {
	render := func(opts Options, add func(c *Collector)) (image.Rectangle, []Cut) {
		t.Helper()
		c, err := NewCollector(t.TempDir())
		require.NoError(t, err)
		defer c.Close()
		add(c)
		var out bytes.Buffer
		cuts, err := c.Render(&out, opts)
		require.NoError(t, err)
		cfg, err := png.DecodeConfig(&out)
		require.NoError(t, err)
		return image.Rect(0, 0, cfg.Width, cfg.Height), cuts
	}
	oneRow := headerH + rowHeight + rowHeight + margin
	slice := func(c *Collector, pid, tid int64, depth int) {
		require.NoError(t, c.Slice(pid, tid, "m", 100, 200, depth, false))
	}

	b, _ := render(Options{}, func(c *Collector) { slice(c, 1, 1, 0) })
	assert.Equal(t, image.Rect(0, 0, 1600, oneRow), b, "default width")

	b, _ = render(Options{Width: 300}, func(c *Collector) {
		c.Thread(1, 9, "idle")
		slice(c, 1, 1, 0)
	})
	assert.Equal(t, oneRow, b.Dy(), "a thread without slices takes no room")

	b, _ = render(Options{Width: 300}, func(c *Collector) {
		require.NoError(t, c.Slice(1, 1, "instant", 500, 500, 0, false))
	})
	assert.Equal(t, oneRow, b.Dy(), "a trace of one instant")

	b, _ = render(Options{Width: 300}, func(c *Collector) {
		c.Lift(1, 1)
		c.Lift(1, 1)
		slice(c, 1, 1, 0)
	})
	assert.Equal(t, oneRow, b.Dy(), "lifts before the first slice move nothing")

	_, cuts := render(Options{Width: 300, MaxRows: 2}, func(c *Collector) {
		for _, k := range []struct {
			pid, tid int64
			depth    int
		}{{2, 1, 2}, {1, 5, 2}, {1, 3, 2}, {1, 4, 1}} {
			slice(c, k.pid, k.tid, 0)
			slice(c, k.pid, k.tid, k.depth)
		}
	})
	var order []string
	for _, c := range cuts {
		assert.Equal(t, 2, c.MaxDepth)
		assert.Equal(t, 2, c.Rows)
		order = append(order, c.Track)
	}
	assert.Equal(t, []string{"pid 1  tid 3", "pid 1  tid 5", "pid 2  tid 1"}, order,
		"cut tracks in pid then tid order; a track at depth 1 of 2 rows is whole")
}

// TestRenderNotes: the notes are drawn in dark red under the title, a line
// each, the rest counted; the tracks move down by the lines they take.
func TestRenderNotes(t *testing.T) {
	red := color.RGBA{0xa0, 0x10, 0x10, 0xff}
	add := func(c *Collector) {
		require.NoError(t, c.Slice(1, 1, "m", sceneBase, sceneBase+400*25, 0, false))
	}
	plain := renderScene(t, Options{}, add)
	notes := []string{"tid 1 \"main\": 166306135 records lost", "b", "c", "d", "e", "f"}
	img := renderScene(t, Options{Notes: notes}, add)
	lines := noteLines(notes, width400)
	require.Equal(t, []string{"note: tid 1 \"main\": 166306135 records lost", "note: b", "note: c", "note: d", "and 2 more notes (decode lists them)"}, lines)
	assert.Equal(t, plain.Bounds().Dy()+5*15, img.Bounds().Dy(), "five lines of notes")
	header := image.Rect(0, 30, img.Bounds().Dx(), 44+15*4+4)
	want := map[image.Point]string{}
	for i, l := range lines {
		want[image.Point{margin, 44 + 15*i}] = l
	}
	got := inkOf(img, header, red)
	sameInk(t, textInk(img.Bounds(), header, want), got, "the notes")
	long := noteLines([]string{strings.Repeat("x", 500)}, width400)
	assert.Len(t, long[0], (width400-2*margin)/7, "a note is cut to the picture's width")
	assert.True(t, strings.HasSuffix(long[0], "..."))
}
