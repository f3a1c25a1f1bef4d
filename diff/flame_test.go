package diff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/htmlview"
	"github.com/tracebeat/tracebeat/profile"
)

// treeRun is a profile of one run from its call paths ("main/a.slowed")
// with their total ms, self ms and calls.
func treeRun(paths map[string][3]float64) *profile.Profile {
	p := &profile.Profile{Source: "run", Methods: map[string]profile.Stat{}, Tree: &profile.Node{}}
	for path, v := range paths {
		n := p.Tree
		for _, name := range strings.Split(path, "/") {
			n = n.Child(name, true)
		}
		n.Stat = profile.Stat{Total: int64(v[0] * 1e6), Self: int64(v[1] * 1e6), Calls: int64(v[2])}
		s := p.Methods[n.Name]
		s.Total += n.Stat.Total
		s.Self += n.Stat.Self
		s.Calls += n.Stat.Calls
		p.Methods[n.Name] = s
	}
	return p
}

// TestMergeTrees: each path's medians over its side's runs, a run that
// did not take it counting 0 (the middle one of an odd count, the mean of
// the middle two of an even one); the root's totals are its children's.
func TestMergeTrees(t *testing.T) {
	base := Side{Runs: []*profile.Profile{
		treeRun(map[string][3]float64{"main": {10, 1, 1}, "main/a": {9, 9, 3}}),
		treeRun(map[string][3]float64{"main": {20, 2, 1}, "main/a": {18, 18, 5}, "other": {4, 4, 1}}),
	}}
	next := Side{Runs: []*profile.Profile{
		treeRun(map[string][3]float64{"main": {30, 3, 1}}),
		treeRun(map[string][3]float64{"main": {10, 1, 1}, "main/a": {6, 6, 2}}),
		treeRun(map[string][3]float64{"main": {50, 5, 1}, "main/a": {40, 40, 7}}),
	}}
	root := mergeTrees(base, next)
	main := root.children["main"]
	require.NotNil(t, main)
	ms := func(x float64) float64 { return x * 1e6 }
	assert.Equal(t, [3]float64{ms(15), ms(1.5), 1}, [3]float64{main.baseTotal, main.baseSelf, main.baseCalls})
	assert.Equal(t, [3]float64{ms(30), ms(3), 1}, [3]float64{main.newTotal, main.newSelf, main.newCalls})
	a := main.children["a"]
	assert.Equal(t, [3]float64{ms(13.5), ms(13.5), 4}, [3]float64{a.baseTotal, a.baseSelf, a.baseCalls})
	assert.Equal(t, [3]float64{ms(6), ms(6), 2}, [3]float64{a.newTotal, a.newSelf, a.newCalls}, "0, 6 and 40: the middle one")
	other := root.children["other"]
	assert.Equal(t, ms(2), other.baseTotal, "0 and 4")
	assert.Zero(t, other.newTotal)
	assert.Equal(t, ms(17), root.baseTotal)
	assert.Equal(t, ms(30), root.newTotal)
	assert.Nil(t, a.baseRuns, "the runs let go once settled")
	total, self, calls := medians(nil)
	assert.Zero(t, total+self+calls)
	total, self, calls = medians([][3]float64{{5, 1, 9}, {1, 2, 8}, {4, 3, 7}, {2, 4, 6}, {3, 5, 5}})
	assert.Equal(t, [3]float64{3, 3, 7}, [3]float64{total, self, calls}, "five runs: the third of each")
}

// TestGoneLines: the methods only BASE called, in the table's order, up
// to a limit and a line for the rest.
func TestGoneLines(t *testing.T) {
	r := &Result{}
	for i := range 7 {
		r.Methods = append(r.Methods, Method{Name: fmt.Sprintf("g%d", i), Status: Gone, CallsBase: int64(i), SelfMsBase: 1.5, TotalMsBase: 2.25})
		r.Methods = append(r.Methods, Method{Name: fmt.Sprintf("s%d", i), Status: Same})
	}
	lines := r.goneLines(5)
	require.Len(t, lines, 6)
	assert.Equal(t, "gone: g0 (BASE: 0 calls, self 1.500 ms, total 2.250 ms)", lines[0])
	assert.Equal(t, "gone: g4 (BASE: 4 calls, self 1.500 ms, total 2.250 ms)", lines[4])
	assert.Equal(t, "and 2 more gone", lines[5])
	assert.Len(t, r.goneLines(7), 7, "as many as the limit: no line for the rest")
	assert.Len(t, r.goneLines(6), 7)
}

// TestVerdictColor: red regressed and blue improved, the deeper the larger
// the change up to 100%; yellow new; grey the same, gone or unknown.
func TestVerdictColor(t *testing.T) {
	for _, tc := range []struct {
		m    Method
		ok   bool
		want color.RGBA
	}{
		{Method{Status: Regressed, DeltaPercent: 100}, true, color.RGBA{235, 60, 60, 255}},
		{Method{Status: Regressed, DeltaPercent: 250}, true, color.RGBA{235, 60, 60, 255}},
		{Method{Status: Regressed, DeltaPercent: 50}, true, color.RGBA{235, 130, 130, 255}},
		{Method{Status: Improved, DeltaPercent: -50}, true, color.RGBA{130, 130, 235, 255}},
		{Method{Status: Improved, DeltaPercent: -100}, true, color.RGBA{60, 60, 235, 255}},
		{Method{Status: New}, true, colorNew},
		{Method{Status: Same}, true, colorSame},
		{Method{Status: Gone}, true, colorSame},
		{Method{Status: Regressed, DeltaPercent: 100}, false, colorSame},
	} {
		assert.Equal(t, tc.want, verdictColor(tc.m, tc.ok), "%+v %v", tc.m, tc.ok)
	}
}

// flameSides: NEW's main (110 ms) calls a.slowed (60), b.steady (40)
// and d.new (10); BASE's main (70) called a.slowed (30), b.steady (40)
// and c.gone (10).
func flameSides() (Side, Side, *Result) {
	base := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{
		"main": {70, 0, 1}, "main/a.slowed": {30, 30, 1}, "main/b.steady": {40, 40, 1}, "main/c.gone": {10, 10, 1}})}}
	next := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{
		"main": {110, 0, 1}, "main/a.slowed": {60, 60, 2}, "main/b.steady": {40, 40, 1}, "main/d.new": {10, 10, 1}})}}
	res := &Result{Methods: []Method{
		{Name: "a.slowed", Status: Regressed, DeltaPercent: 100},
		{Name: "main", Status: Regressed, DeltaPercent: 50},
		{Name: "b.steady", Status: Same},
		{Name: "d.new", Status: New},
		{Name: "c.gone", Status: Gone, CallsBase: 1, SelfMsBase: 10, TotalMsBase: 10},
	}}
	return base, next, res
}

func rgba(img image.Image, x, y int) color.RGBA {
	r, g, b, a := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

// has reports a pixel of colour c in the rectangle.
func has(img image.Image, r image.Rectangle, c color.RGBA) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgba(img, x, y) == c {
				return true
			}
		}
	}
	return false
}

// TestFlamePNG reads the differential flame graph back pixel by pixel:
// its size, the frames of each level at their widths in their verdicts'
// colours, the legend's swatches, the gone method's line.
func TestFlamePNG(t *testing.T) {
	base, next, res := flameSides()
	var buf bytes.Buffer
	require.NoError(t, WriteFlamePNG(&buf, res, base, next, "the title"))
	img, err := png.Decode(&buf)
	require.NoError(t, err)
	header := flameHeader + 15 // one gone line
	height := header + 2*flameRow + 4
	assert.Equal(t, image.Rect(0, 0, flameWidth, height), img.Bounds())
	level0 := height - 4 - 8
	level1 := level0 - flameRow
	red := verdictColor(Method{Status: Regressed, DeltaPercent: 100}, true)
	for _, p := range []struct {
		x, y int
		want color.RGBA
	}{
		{800, level0, verdictColor(Method{Status: Regressed, DeltaPercent: 50}, true)},
		{1599, level0, verdictColor(Method{Status: Regressed, DeltaPercent: 50}, true)},
		{400, level1, red},
		{871, level1, red},        // a.slowed: 60/110 of 1600 = 872.7
		{873, level1, colorSame},  // b.steady from there
		{1453, level1, colorSame}, // to 100/110 of 1600 = 1454.5
		{1590, level1, colorNew},  // d.new to the end
		{800, level1 - flameRow, color.RGBA{250, 250, 245, 255}}, // above the top level
		{1500, 40, color.RGBA{250, 250, 245, 255}},
	} {
		assert.Equal(t, p.want, rgba(img, p.x, p.y), "(%d, %d)", p.x, p.y)
	}
	assert.True(t, has(img, image.Rect(8, 4, 80, 18), color.RGBA{0, 0, 0, 255}), "the title")
	assert.True(t, has(img, image.Rect(8, 36, 400, 50), color.RGBA{60, 60, 60, 255}), "the gone line")
	assert.True(t, has(img, image.Rect(2, level1-7, 60, level1+7), color.RGBA{0, 0, 0, 255}), "a.slowed's label")
	assert.False(t, has(img, image.Rect(0, 0, flameWidth, height), color.RGBA{120, 0, 0, 255}), "every level drawn")
	// The legend: a label without a swatch, then the swatches.
	x := 8 + 7*len("width: NEW's total time (median);") + 12
	assert.Equal(t, red, rgba(img, x+7, 30))
	x += 18 + 7*len("regressed") + 12
	assert.Equal(t, verdictColor(Method{Status: Improved, DeltaPercent: -100}, true), rgba(img, x+7, 30))
	x += 18 + 7*len("improved") + 12
	assert.Equal(t, colorNew, rgba(img, x+7, 30))
	x += 18 + 7*len("new") + 12
	assert.Equal(t, colorSame, rgba(img, x+7, 30))

	// No time in NEW: the levels are left empty.
	empty := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{"main": {0, 0, 1}})}}
	buf.Reset()
	require.NoError(t, WriteFlamePNG(&buf, &Result{}, empty, empty, ""))
	img, err = png.Decode(&buf)
	require.NoError(t, err)
	assert.Equal(t, color.RGBA{250, 250, 245, 255}, rgba(img, 800, img.Bounds().Dy()-12))
}

// TestFlamePNGCutsDeepTrees: a tree deeper than an image may be tall is
// drawn to the levels that fit, and says so.
func TestFlamePNGCutsDeepTrees(t *testing.T) {
	paths := map[string][3]float64{}
	path := "m0"
	for i := range 2100 {
		paths[path] = [3]float64{100, 1, 1}
		path += fmt.Sprintf("/m%d", i+1)
	}
	side := Side{Runs: []*profile.Profile{treeRun(paths)}}
	var buf bytes.Buffer
	require.NoError(t, WriteFlamePNG(&buf, &Result{}, side, side, "deep"))
	img, err := png.Decode(&buf)
	require.NoError(t, err)
	rows := (flameMaxPx - flameHeader) / flameRow
	assert.Equal(t, flameHeader+rows*flameRow+4, img.Bounds().Dy())
	assert.LessOrEqual(t, img.Bounds().Dy(), flameMaxPx)
	assert.True(t, has(img, image.Rect(900, 4, 1100, 18), color.RGBA{120, 0, 0, 255}), "levels drawn of how many")
	assert.Equal(t, colorSame, rgba(img, 800, flameHeader+8), "the top level that fits is drawn")
	assert.Equal(t, color.RGBA{250, 250, 245, 255}, rgba(img, 800, flameHeader-8), "and none above it, in the header")
	assert.Equal(t, 2100, treeDepth(mergeTrees(side, side)))
}

// TestFlamePNGNarrowFrames: a frame narrower than half a pixel is not
// drawn, and the frames after it keep their places; one of half a pixel
// is drawn a pixel wide. (Times in 1/1024 ms: 1,600 pixels for 1,600
// ms.)
func TestFlamePNGNarrowFrames(t *testing.T) {
	px := func(n float64) int64 { return int64(n * 1024) }
	p := &profile.Profile{Methods: map[string]profile.Stat{}, Tree: &profile.Node{}}
	for _, f := range []struct {
		name  string
		width float64
	}{{"a", 0.25}, {"aa", 0.25}, {"b", 1598.5}, {"c", 0.5}, {"d", 0.25}, {"e", 0.25}} {
		p.Tree.Child(f.name, true).Stat = profile.Stat{Total: px(f.width), Calls: 1}
	}
	next := Side{Runs: []*profile.Profile{p}}
	res := &Result{Methods: []Method{{Name: "a", Status: New}, {Name: "aa", Status: New}, {Name: "b", Status: Regressed, DeltaPercent: 100},
		{Name: "c", Status: New}, {Name: "d", Status: New}, {Name: "e", Status: New}}}
	var buf bytes.Buffer
	require.NoError(t, WriteFlamePNG(&buf, res, next, next, ""))
	img, err := png.Decode(&buf)
	require.NoError(t, err)
	y := img.Bounds().Dy() - 12
	red := verdictColor(res.Methods[2], true)
	assert.Equal(t, red, rgba(img, 0, y), "a and aa not drawn; b from 0.5")
	assert.Equal(t, red, rgba(img, 1598, y), "b to 1599.0")
	assert.Equal(t, colorNew, rgba(img, 1599, y), "c: half a pixel, drawn one wide")
}

// TestFlameHTML reads the page's data back: NEW's paths in name order,
// each with its parent, its method's verdict and change, NEW's and
// BASE's medians; a path only BASE took is left out and its method is
// listed as gone.
func TestFlameHTML(t *testing.T) {
	base, next, res := flameSides()
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, res, base, next, "a <title>", []string{"a note"}))
	page := buf.String()
	assert.Contains(t, page, "a &lt;title&gt;")
	meta := pageMeta(t, page)
	assert.True(t, meta.Diff)
	assert.Equal(t, "a <title>", meta.Title)
	assert.Equal(t, []string{"a note"}, meta.Notes)
	assert.Equal(t, []string{"gone: c.gone (BASE: 1 calls, self 10.000 ms, total 10.000 ms)"}, meta.Gone)
	assert.Equal(t, []string{"main", "a.slowed", "b.steady", "d.new"}, meta.Names)
	assert.Equal(t, []string{Regressed, Regressed, Same, New}, meta.Status)
	assert.Equal(t, []float64{50, 100, 0, 0}, meta.Change)
	const ms = 1_000_000
	assert.Equal(t, []int64{
		0, 0, 110 * ms, 0, 1, 70 * ms, 0, 1,
		1, 1, 60 * ms, 60 * ms, 2, 30 * ms, 30 * ms, 1,
		1, 2, 40 * ms, 40 * ms, 1, 40 * ms, 40 * ms, 1,
		1, 3, 10 * ms, 10 * ms, 1, 0, 0, 0,
	}, meta.Tree)

	// A method without a verdict has no status.
	buf.Reset()
	require.NoError(t, WriteHTML(&buf, &Result{}, base, next, "", nil))
	bare := pageMeta(t, buf.String())
	assert.Equal(t, []string{"", "", "", ""}, bare.Status)
	assert.Empty(t, bare.Gone)
	assert.Equal(t, []string{}, bare.Notes)
}

// TestRound: to the nearest, halves away from zero.
func TestRound(t *testing.T) {
	assert.Equal(t, []int64{0, 1, 2, -2, 3}, []int64{round(0.4), round(0.5), round(1.6), round(-1.5), round(2.5)})
}

// drawFlame draws the flame graph of a run (both sides) and decodes it.
func drawFlame(t *testing.T, res *Result, base, next Side) image.Image {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, WriteFlamePNG(&buf, res, base, next, "t"))
	img, err := png.Decode(&buf)
	require.NoError(t, err)
	return img
}

// TestFlamePNGLayout: frames left to right in name order; a narrow last
// frame leaves its pixel to the background; a tree of a nanosecond
// is drawn; no time draws no frame, even at the left edge; five gone
// methods are listed and a line for the rest, each line below the one
// before; the legend's labels are drawn.
func TestFlamePNGLayout(t *testing.T) {
	background := color.RGBA{250, 250, 245, 255}
	paths := map[string][3]float64{}
	res := &Result{}
	for i := range 16 {
		name := fmt.Sprintf("c%02d", i)
		paths[name] = [3]float64{100, 100, 1}
		status := New
		if i%2 == 1 {
			status = Same
		}
		res.Methods = append(res.Methods, Method{Name: name, Status: status})
	}
	for i := range 7 {
		res.Methods = append(res.Methods, Method{Name: fmt.Sprintf("gone%d", i), Status: Gone})
	}
	s := Side{Runs: []*profile.Profile{treeRun(paths)}}
	img := drawFlame(t, res, s, s)
	header := flameHeader + 15*6
	assert.Equal(t, header+flameRow+4, img.Bounds().Dy(), "five gone lines and one for the rest")
	y := img.Bounds().Dy() - 12
	for i := range 16 {
		want := colorNew
		if i%2 == 1 {
			want = colorSame
		}
		assert.Equal(t, want, rgba(img, 100*i+50, y), "c%02d", i)
	}
	grey := color.RGBA{60, 60, 60, 255}
	for i := range 6 {
		assert.True(t, has(img, image.Rect(8, 48+15*i-9, 200, 48+15*i+1), grey), "gone line %d", i)
	}
	assert.True(t, has(img, image.Rect(8, 24, 8+7*len("width: NEW's total time (median);"), 36), grey), "the legend's first label")

	narrow := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{"b": {1599.7, 1599.7, 1}, "z": {0.3, 0.3, 1}})}}
	img = drawFlame(t, &Result{Methods: []Method{{Name: "b", Status: Same}, {Name: "z", Status: New}}}, narrow, narrow)
	y = img.Bounds().Dy() - 12
	assert.Equal(t, colorSame, rgba(img, 1598, y))
	assert.Equal(t, background, rgba(img, 1599, y), "z, 0.3 of a pixel at the end: not drawn")

	small := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{"main": {1e-6, 1e-6, 1}})}}
	img = drawFlame(t, &Result{}, small, small)
	assert.Equal(t, colorSame, rgba(img, 800, img.Bounds().Dy()-12), "a nanosecond is the whole width")

	empty := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{"main": {0, 0, 1}})}}
	img = drawFlame(t, &Result{}, empty, empty)
	for _, x := range []int{0, 1, 800, 1599} {
		assert.Equal(t, background, rgba(img, x, img.Bounds().Dy()-12), "x %d", x)
	}
}

// pageMeta reads the data of a page WriteHTML wrote.
func pageMeta(t *testing.T, page string) htmlview.Meta {
	t.Helper()
	start := strings.Index(page, `id="tbmeta">`)
	require.Positive(t, start)
	data := page[start+len(`id="tbmeta">`):]
	data = data[:strings.Index(data, "</script>")]
	var meta htmlview.Meta
	require.NoError(t, json.Unmarshal([]byte(data), &meta))
	return meta
}

// TestFlameHTMLEdges: the page ends as an HTML page does (all of it
// written); it lists fifty gone methods and a line for the rest; a path
// of a nanosecond has its place; a writer that fails is an error.
func TestFlameHTMLEdges(t *testing.T) {
	res := &Result{}
	for i := range 52 {
		res.Methods = append(res.Methods, Method{Name: fmt.Sprintf("g%02d", i), Status: Gone})
	}
	s := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{"tiny": {1e-6, 1e-6, 1}})}}
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, res, s, s, "t", nil))
	page := buf.String()
	assert.True(t, strings.HasSuffix(strings.TrimSpace(page), "</html>"), "the page's end: %q", page[max(0, len(page)-40):])
	meta := pageMeta(t, page)
	require.Len(t, meta.Gone, 51)
	assert.Equal(t, "and 2 more gone", meta.Gone[50])
	assert.Equal(t, []string{"tiny"}, meta.Names)

	assert.ErrorIs(t, WriteHTML(failing{}, res, s, s, "t", nil), errFailing)
}

var errFailing = errors.New("cannot write")

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errFailing }

// blackIn counts the label pixels (black) in a rectangle of img.
func blackIn(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgba(img, x, y) == (color.RGBA{0, 0, 0, 255}) {
				n++
			}
		}
	}
	return n
}

// glyphPixels counts the pixels basicfont's 7x13 face sets for s.
func glyphPixels(s string) int {
	img := image.NewRGBA(image.Rect(0, 0, 7*len([]rune(s))+8, 20))
	text(img, 2, 15, s, color.RGBA{0, 0, 0, 255})
	return blackIn(img, img.Bounds())
}

// TestFlamePNGFramesAndLabels: a level's frames leave one row between
// them and the level above; a frame under a pixel wide is drawn one
// pixel wide, no wider; a label is drawn when three characters fit in
// the frame less 4 pixels (7 pixels a character), whole when it fits,
// else cut with an ellipsis, and never past its frame.
func TestFlamePNGFramesAndLabels(t *testing.T) {
	background := color.RGBA{250, 250, 245, 255}
	// In pixels (1,600 for the root's 1,600 ms): a's children a0, 100.2
	// wide, and b, 0.6 wide, on level 1.
	s := Side{Runs: []*profile.Profile{treeRun(map[string][3]float64{
		"a": {1600, 1599.2, 1}, "a/a0": {100.2, 100.2, 1}, "a/b": {0.6, 0.6, 1}})}}
	img := drawFlame(t, &Result{Methods: []Method{{Name: "b", Status: New}}}, s, s)
	bottom := img.Bounds().Dy() - 4
	assert.Equal(t, colorSame, rgba(img, 50, bottom-1), "level 0's last row")
	assert.Equal(t, colorSame, rgba(img, 50, bottom-15), "level 0's first row")
	assert.Equal(t, background, rgba(img, 50, bottom-16), "the row between the levels")
	assert.Equal(t, colorSame, rgba(img, 50, bottom-17), "level 1's last row")
	assert.Equal(t, colorNew, rgba(img, 100, bottom-20), "b, 0.6 of a pixel, drawn at 100")
	assert.Equal(t, background, rgba(img, 101, bottom-20), "one pixel wide only")

	// The frame tested after one of the rest of the width, and before ten
	// frames too narrow for a label of their own.
	labels := func(width float64, name string) (inside, beyond int) {
		paths := map[string][3]float64{"0rest": {1400 - width, 1400 - width, 1}, name: {width, width, 1}}
		for i := range 10 {
			paths[fmt.Sprintf("z%d", i)] = [3]float64{20, 20, 1}
		}
		s := Side{Runs: []*profile.Profile{treeRun(paths)}}
		img := drawFlame(t, &Result{}, s, s)
		bottom := img.Bounds().Dy() - 4
		start := int(1400 - width)
		return blackIn(img, image.Rect(start, bottom-15, 1400, bottom)), blackIn(img, image.Rect(1400, bottom-15, 1600, bottom))
	}
	for _, tc := range []struct {
		width float64
		name  string
		want  string // the label drawn, "" none
	}{
		{25, "abc", "abc"},
		{24.99, "abc", ""},
		{25, "abcd", "ab…"},
		{32, "abcd", "abcd"},
		{31.99, "abcd", "ab…"},
		{25, "abcdefghij", "ab…"},
	} {
		inside, beyond := labels(tc.width, tc.name)
		want := 0
		if tc.want != "" {
			want = glyphPixels(tc.want)
		}
		assert.Equal(t, want, inside, "%q in %v pixels: %q", tc.name, tc.width, tc.want)
		assert.Zero(t, beyond, "%q in %v pixels: nothing past the frame", tc.name, tc.width)
	}
}
