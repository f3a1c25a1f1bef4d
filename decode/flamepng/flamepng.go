// Package flamepng draws a flame chart (time on x, call depth on y, one
// band per thread) as a PNG image: of slices a decode hands a Collector as
// it makes them (memory holds a pixel grid per thread, not the slices), or
// of a Chrome trace-event JSON file (read whole; for small traces).
package flamepng

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Slice is one timed section.
type Slice struct {
	Name     string
	StartUs  float64
	EndUs    float64
	Depth    int
	Unclosed bool
	order    int // file order, to keep callers before callees on ties
}

// Track is one thread's slices.
type Track struct {
	Pid, Tid int64
	Name     string
	Slices   []Slice
	MaxDepth int
}

type rawEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Pid  json.RawMessage `json:"pid"`
	Tid  json.RawMessage `json:"tid"`
	Args map[string]any  `json:"args"`
}

func rawID(m json.RawMessage) int64 {
	if len(m) == 0 {
		return 0
	}
	var n json.Number
	if json.Unmarshal(m, &n) == nil {
		if v, err := n.Int64(); err == nil {
			return v
		}
	}
	var s string
	if json.Unmarshal(m, &s) == nil {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return v
		}
		h := fnv.New32a()
		h.Write([]byte(s))
		return int64(h.Sum32())
	}
	return 0
}

type trackKey struct{ pid, tid int64 }

// ReadTraceEvents reads X and B/E events (and thread_name metadata) from
// {"traceEvents":[...]} or a bare event array, and lays them out in tracks.
func ReadTraceEvents(r io.Reader) ([]Track, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("trace JSON: %w", err)
	}
	b := newBuilder()
	switch tok {
	case json.Delim('['):
		if err := b.readArray(dec); err != nil {
			return nil, err
		}
	case json.Delim('{'):
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("trace JSON: %w", err)
			}
			if key, _ := keyTok.(string); key == "traceEvents" {
				open, err := dec.Token()
				if err != nil || open != json.Delim('[') {
					return nil, errors.New(`trace JSON: "traceEvents" is not an array`)
				}
				if err := b.readArray(dec); err != nil {
					return nil, err
				}
				continue
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("trace JSON: %w", err)
			}
		}
	default:
		return nil, errors.New("trace JSON: expected an object or an array")
	}
	return b.finish(), nil
}

type openB struct {
	name  string
	start float64
	order int
}

type builder struct {
	tracks map[trackKey]*Track
	open   map[trackKey][]openB
	order  int
	maxTs  float64
}

func newBuilder() *builder {
	return &builder{tracks: map[trackKey]*Track{}, open: map[trackKey][]openB{}}
}

func (b *builder) track(k trackKey) *Track {
	t := b.tracks[k]
	if t == nil {
		t = &Track{Pid: k.pid, Tid: k.tid}
		b.tracks[k] = t
	}
	return t
}

func (b *builder) readArray(dec *json.Decoder) error {
	for n := 1; dec.More(); n++ {
		var ev rawEvent
		if err := dec.Decode(&ev); err != nil {
			return fmt.Errorf("trace JSON: event %d: %w", n, err)
		}
		b.add(ev)
	}
	_, err := dec.Token() // ']'
	return err
}

func (b *builder) add(ev rawEvent) {
	k := trackKey{rawID(ev.Pid), rawID(ev.Tid)}
	b.order++
	unclosed, _ := ev.Args["unclosed"].(bool)
	switch ev.Ph {
	case "X":
		b.maxTs = max(b.maxTs, ev.Ts+ev.Dur)
		t := b.track(k)
		t.Slices = append(t.Slices, Slice{Name: ev.Name, StartUs: ev.Ts, EndUs: ev.Ts + ev.Dur, Unclosed: unclosed, order: b.order})
	case "B":
		b.maxTs = max(b.maxTs, ev.Ts)
		b.open[k] = append(b.open[k], openB{name: ev.Name, start: ev.Ts, order: b.order})
	case "E":
		b.maxTs = max(b.maxTs, ev.Ts)
		st := b.open[k]
		if len(st) == 0 {
			return
		}
		o := st[len(st)-1]
		b.open[k] = st[:len(st)-1]
		t := b.track(k)
		t.Slices = append(t.Slices, Slice{Name: o.name, StartUs: o.start, EndUs: ev.Ts, Unclosed: unclosed, order: o.order})
	case "M":
		if ev.Name == "thread_name" {
			if name, ok := ev.Args["name"].(string); ok {
				b.track(k).Name = name
			}
		}
	}
}

func (b *builder) finish() []Track {
	for k, st := range b.open {
		t := b.track(k)
		for _, o := range st {
			t.Slices = append(t.Slices, Slice{Name: o.name, StartUs: o.start, EndUs: b.maxTs, Unclosed: true, order: o.order})
		}
	}
	keys := make([]trackKey, 0, len(b.tracks))
	for k, t := range b.tracks {
		if len(t.Slices) > 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b trackKey) int {
		if a.pid != b.pid {
			return cmpInt(a.pid, b.pid)
		}
		return cmpInt(a.tid, b.tid)
	})
	tracks := make([]Track, 0, len(keys))
	for _, k := range keys {
		t := b.tracks[k]
		layout(t)
		tracks = append(tracks, *t)
	}
	return tracks
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// layout sorts slices by start (longer first, then file order) and gives
// each the depth of the slices that contain it.
func layout(t *Track) {
	slices.SortStableFunc(t.Slices, func(a, b Slice) int {
		switch {
		case a.StartUs != b.StartUs:
			return cmpFloat(a.StartUs, b.StartUs)
		case a.EndUs != b.EndUs:
			return cmpFloat(b.EndUs, a.EndUs)
		}
		return a.order - b.order
	})
	var ends []float64
	for i := range t.Slices {
		s := &t.Slices[i]
		for len(ends) > 0 && s.EndUs > ends[len(ends)-1] {
			ends = ends[:len(ends)-1]
		}
		s.Depth = len(ends)
		t.MaxDepth = max(t.MaxDepth, s.Depth)
		ends = append(ends, s.EndUs)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Options control Render.
type Options struct {
	Width int    // image width in pixels (default 1600)
	Title string // drawn at the top
	// Notes are drawn under the title, one line each (at most
	// maxNoteLines): what the trace is missing, what is rough.
	Notes   []string
	MaxRows int // depth rows drawn per track (default 40)
	// CutHint, when set, ends the line that a cut track gets in the
	// picture: how to draw the rest (the flag of the program that draws).
	CutHint func(maxDepth int) string
}

// A Cut is a track whose calls went deeper than the rows drawn: the
// picture says so under the track, and Render returns it for the caller
// to say too.
type Cut struct {
	Track    string // the track's label
	MaxDepth int    // depth of its deepest call (0: top level)
	Rows     int    // depth rows drawn
}

const (
	rowHeight = 16
	margin    = 10
	headerH   = 58 // the title, the line on merged slices, the axis labels
)

// Render draws tracks as a PNG and returns the tracks whose deeper calls
// it did not draw.
func Render(tracks []Track, w io.Writer, opts Options) ([]Cut, error) {
	c, err := NewCollector("")
	if err != nil {
		return nil, err
	}
	defer c.Close()
	for _, t := range tracks {
		c.Thread(t.Pid, t.Tid, t.Name)
		for _, s := range t.Slices {
			if err := c.Slice(t.Pid, t.Tid, s.Name, usToNs(s.StartUs), usToNs(s.EndUs), s.Depth, s.Unclosed); err != nil {
				return nil, err
			}
		}
	}
	return c.Render(w, opts)
}

// usToNs turns a trace-event time into nanoseconds, saturating.
func usToNs(us float64) int64 {
	ns := math.Round(us * 1e3)
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= math.MinInt64:
		return math.MinInt64
	}
	return int64(ns)
}

// maxNoteLines is how many notes a picture shows; a line says how many more.
const maxNoteLines = 4

// noteLines are the lines the notes take: each cut to fit, and the count
// of the rest.
func noteLines(notes []string, width int) []string {
	chars := max((width-2*margin)/7, 8)
	var lines []string
	for i, n := range notes {
		if i == maxNoteLines {
			lines = append(lines, fmt.Sprintf("and %d more notes (decode lists them)", len(notes)-i))
			break
		}
		n = "note: " + n
		if len(n) > chars {
			n = n[:chars-3] + "..."
		}
		lines = append(lines, n)
	}
	return lines
}

func drawAxis(img *image.RGBA, minT, maxT float64, x func(float64) int, height, top int) {
	span := maxT - minT
	step := math.Pow(10, math.Floor(math.Log10(span/8)))
	for _, m := range []float64{1, 2, 5, 10} {
		if span/(step*m) <= 10 {
			step *= m
			break
		}
	}
	grid := color.RGBA{0xe4, 0xe4, 0xe4, 0xff}
	// Ticks at whole multiples of step from the start, so that labels are
	// round numbers, whatever the first timestamp is.
	for k := 0; ; k++ {
		off := float64(k) * step
		if minT+off > maxT {
			break
		}
		px := x(minT + off)
		draw.Draw(img, image.Rect(px, top-6, px+1, height), image.NewUniform(grid), image.Point{}, draw.Src)
		text(img, px+2, top-8, formatMicros(off, step), color.RGBA{0x55, 0x55, 0x55, 0xff})
	}
}

// fitLabel shortens a method name to at most n characters, dropping the
// least telling parts first: the descriptor, then the package, then the
// tail.
func fitLabel(name string, n int) string {
	if len(name) <= n {
		return name
	}
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
		if len(name) <= n {
			return name
		}
	}
	if dot := strings.LastIndexByte(name, '.'); dot > 0 {
		if cls := strings.LastIndexByte(name[:dot], '.'); cls >= 0 {
			name = name[cls+1:]
			if len(name) <= n {
				return name
			}
		}
	}
	return name[:n-1] + "~"
}

// formatMicros shows a tick's offset in s, ms or us, with as many decimals
// as the tick step needs (and no float noise such as 7.4999999).
func formatMicros(us, step float64) string {
	unit, scale := " us", 1.0
	switch {
	case us == 0:
		return "0"
	case us >= 1e6:
		unit, scale = " s", 1e6
	case us >= 1e3:
		unit, scale = " ms", 1e3
	}
	decimals := max(0, int(math.Ceil(-math.Log10(step/scale)-1e-9)))
	return strconv.FormatFloat(us/scale, 'f', decimals, 64) + unit
}

func text(img *image.RGBA, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// colorFor gives each name a stable warm pastel, like flame graphs.
func colorFor(name string) color.RGBA {
	h := fnv.New32a()
	h.Write([]byte(name))
	v := h.Sum32()
	return color.RGBA{R: 0xf0 + uint8(v%16), G: 0x90 + uint8(v>>4%0x50), B: 0x50 + uint8(v>>12%0x40), A: 0xff}
}

func darker(c color.RGBA) color.RGBA {
	return color.RGBA{R: c.R / 10 * 7, G: c.G / 10 * 7, B: c.B / 10 * 7, A: 0xff}
}

// RenderJSON reads trace-event JSON and writes the PNG (see Render).
func RenderJSON(r io.Reader, w io.Writer, opts Options) ([]Cut, error) {
	tracks, err := ReadTraceEvents(r)
	if err != nil {
		return nil, err
	}
	return Render(tracks, w, opts)
}
