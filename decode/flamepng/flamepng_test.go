package flamepng

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"strings"
	"testing"
)

const sample = `{"traceEvents":[
{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":1,"args":{"name":"main"}},
{"name":"run","ph":"X","ts":0,"dur":100000,"pid":1,"tid":1},
{"name":"load","ph":"X","ts":0,"dur":40000,"pid":1,"tid":1},
{"name":"step","ph":"X","ts":0,"dur":0,"pid":1,"tid":1},
{"name":"compute","ph":"X","ts":40000,"dur":60000,"pid":1,"tid":1,"args":{"unclosed":true}},
{"name":"draw","ph":"B","ts":10000,"pid":1,"tid":2},
{"name":"draw","ph":"E","ts":30000,"pid":1,"tid":2},
{"name":"open","ph":"B","ts":50000,"pid":1,"tid":2}
],"displayTimeUnit":"ms"}`

func TestReadTraceEventsLayout(t *testing.T) {
	tracks, err := ReadTraceEvents(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(tracks) != 2 || tracks[0].Name != "main" || tracks[0].Tid != 1 || tracks[1].Tid != 2 {
		t.Fatalf("tracks = %+v", tracks)
	}
	depth := map[string]int{}
	for _, tr := range tracks {
		for _, s := range tr.Slices {
			depth[s.Name] = s.Depth
		}
	}
	want := map[string]int{"run": 0, "load": 1, "step": 2, "compute": 1, "draw": 0, "open": 0}
	for name, d := range want {
		if depth[name] != d {
			t.Errorf("%s at depth %d, want %d", name, depth[name], d)
		}
	}
	if tracks[0].MaxDepth != 2 {
		t.Errorf("MaxDepth = %d", tracks[0].MaxDepth)
	}
	// "open" never ends: it runs to the end of the trace, marked unclosed.
	for _, s := range tracks[1].Slices {
		if s.Name == "open" && (!s.Unclosed || s.EndUs != 100000) {
			t.Errorf("open = %+v", s)
		}
	}
}

func TestRenderDrawsSlices(t *testing.T) {
	var out bytes.Buffer
	cuts, err := RenderJSON(strings.NewReader(sample), &out, Options{Width: 1020, Title: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cuts) != 0 {
		t.Errorf("cuts = %v, want none", cuts)
	}
	img, err := png.Decode(&out)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != 1020 {
		t.Errorf("width = %d", b.Dx())
	}
	// run spans the whole plot on the first row of track 1: the pixel at
	// 3/4 of the width, mid-row, is run's color, not background.
	y := headerH + rowHeight + rowHeight/2
	if c := color.RGBAModel.Convert(img.At(margin+750, y)).(color.RGBA); c == (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("no slice drawn at (%d,%d)", margin+750, y)
	}
	// Below the deepest row of track 1, before track 2's label, is background.
	gap := headerH + rowHeight + 3*rowHeight + margin/2
	if c := color.RGBAModel.Convert(img.At(margin+751, gap)).(color.RGBA); c != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("unexpected paint at (%d,%d): %v", margin+751, gap, c)
	}
}

func TestReadTraceEventsErrors(t *testing.T) {
	for _, in := range []string{``, `"x"`, `{"traceEvents":{}}`, `{"traceEvents":[{"name":1}]}`} {
		if _, err := ReadTraceEvents(strings.NewReader(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	if _, err := Render(nil, &bytes.Buffer{}, Options{}); err == nil {
		t.Error("empty trace rendered")
	}
}

func TestFitLabel(t *testing.T) {
	tests := []struct {
		name string
		n    int
		want string
	}{
		{"app.ui.FeedView.bind(Lapp.model.Item;)V", 100, "app.ui.FeedView.bind(Lapp.model.Item;)V"},
		{"app.ui.FeedView.bind(Lapp.model.Item;)V", 20, "app.ui.FeedView.bind"},
		{"app.ui.FeedView.bind(Lapp.model.Item;)V", 14, "FeedView.bind"},
		{"app.ui.FeedView.bind(Lapp.model.Item;)V", 6, "FeedV~"},
		{"<unknown id 9>", 5, "<unk~"},
		{"abc", 3, "abc"},                // exactly the room
		{"app.Cls.m()V", 9, "app.Cls.m"}, // no descriptor: exactly the room
		{"app.Cls.m", 5, "Cls.m"},        // no package: exactly the room
		{".B.m", 3, "B.m"},               // a package of none but the dot
		{"(abc)xyz", 3, "(a~"},           // a '(' first is no descriptor
	}
	for _, tc := range tests {
		if got := fitLabel(tc.name, tc.n); got != tc.want {
			t.Errorf("fitLabel(%q, %d) = %q, want %q", tc.name, tc.n, got, tc.want)
		}
	}
}

// deepTrack is one thread calling 120 levels deep.
func deepTrack(depth int) Track {
	t := Track{Pid: 1, Tid: 7, Name: "deep", MaxDepth: depth - 1}
	for d := range depth {
		t.Slices = append(t.Slices, Slice{Name: fmt.Sprintf("m%d", d), StartUs: float64(d), EndUs: float64(2*depth - d), Depth: d})
	}
	return t
}

// A track deeper than the rows drawn is cut, and says so: Render returns
// it, the picture grows by a line of red text under the track, and with
// more rows nothing is cut and every level is drawn.
func TestRenderSaysWhatItCut(t *testing.T) {
	tracks := []Track{deepTrack(120)}
	var out bytes.Buffer
	cuts, err := Render(tracks, &out, Options{Width: 800, CutHint: func(d int) string { return fmt.Sprintf("--png-depth %d", d+1) }})
	if err != nil {
		t.Fatal(err)
	}
	want := []Cut{{Track: "pid 1  tid 7  deep", MaxDepth: 119, Rows: 40}}
	if !reflect.DeepEqual(cuts, want) {
		t.Errorf("cuts = %+v, want %+v", cuts, want)
	}
	img, err := png.Decode(&out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Dy(), headerH+rowHeight+40*rowHeight+rowHeight+margin; got != want {
		t.Errorf("height = %d, want %d (40 rows and the note)", got, want)
	}
	noteTop := headerH + rowHeight + 40*rowHeight
	band := image.Rect(0, noteTop, 800, noteTop+rowHeight)
	rgba := toRGBA(img)
	sameInk(t, textInk(rgba.Bounds(), band, map[image.Point]string{{margin, noteTop + 12}: "calls deeper than 40 rows not drawn (deepest at depth 120): --png-depth 120"}),
		inkOf(rgba, band, color.RGBA{0xc0, 0x10, 0x10, 0xff}), "the note under the cut track")

	out.Reset()
	cuts, err = Render(tracks, &out, Options{Width: 800, MaxRows: 120})
	if err != nil || len(cuts) != 0 {
		t.Fatalf("cuts = %v, err = %v with 120 rows", cuts, err)
	}
	img, err = png.Decode(&out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Dy(), headerH+rowHeight+120*rowHeight+margin; got != want {
		t.Errorf("height = %d, want %d", got, want)
	}
}

// TestCollectorMergesNarrowSlices: slices narrower than a pixel share it,
// and the one covering most of it is drawn there; the picture says how
// many were merged, and draws no such line when none were.
func TestCollectorMergesNarrowSlices(t *testing.T) {
	const width = 2*margin + 100 // 10,000 ns over 100 pixels: pixel p is p*100 ns, ±50
	draw := func(add func(c *Collector)) image.Image {
		c, err := NewCollector(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Thread(1, 1, "main")
		if err := c.Slice(1, 1, "outer", 0, 10_000, 0, false); err != nil {
			t.Fatal(err)
		}
		add(c)
		var out bytes.Buffer
		if _, err := c.Render(&out, Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&out)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	noteInk := func(img image.Image) int {
		ink := 0
		for y := 18; y < 32; y++ {
			for x := 0; x < width; x++ {
				if c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); c.R < 0x80 {
					ink++
				}
			}
		}
		return ink
	}
	// Pixel 40 holds slices of 0.2 and then 0.69 pixels, pixel 60 of 0.6
	// and then 0.3: the longer wins whichever came first.
	img := draw(func(c *Collector) {
		for _, s := range []struct {
			name       string
			start, end int64
		}{{"short", 3960, 3980}, {"long", 3980, 4049}, {"long", 5955, 6015}, {"short", 6015, 6045}} {
			if err := c.Slice(1, 1, s.name, s.start, s.end, 1, false); err != nil {
				t.Fatal(err)
			}
		}
	})
	row := headerH + rowHeight + rowHeight + 4 // inside depth row 1
	for _, px := range []int{40, 60} {
		got := color.RGBAModel.Convert(img.At(margin+px, row)).(color.RGBA)
		if want := colorFor("long"); got != want && got != darker(want) {
			t.Errorf("pixel %d is %v, want long's %v", px, got, want)
		}
	}
	if noteInk(img) == 0 {
		t.Error("no line says slices were merged")
	}
	if ink := noteInk(draw(func(*Collector) {})); ink != 0 {
		t.Errorf("%d dark pixels where no merge note belongs", ink)
	}
}
