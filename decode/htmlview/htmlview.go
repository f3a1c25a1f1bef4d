// Package htmlview is the page `decode --format html` and `diff --format
// html` write: a small template (head.html, viewer.js) around the data the
// writer packs into it. One file, nothing fetched: it opens offline.
package htmlview

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"html"
	"strings"
)

//go:embed head.html
var head string

//go:embed viewer.js
var viewer string

// Head is the page up to where the data starts.
func Head(title string) string {
	return strings.ReplaceAll(head, "{{TITLE}}", html.EscapeString(title))
}

// Tail is the page's code and end, after the data.
func Tail() string {
	return "<script>\n" + viewer + "</script>\n</body>\n</html>\n"
}

// Meta is what the page's code reads beside the packed slices.
type Meta struct {
	Title   string   `json:"title"`
	Process string   `json:"process"`
	Clock   string   `json:"clock"`
	Notes   []string `json:"notes"`
	// LengthNs is the recording's length (0: unknown), beside which the
	// page says which part of it its calls cover.
	LengthNs int64 `json:"length_ns,omitempty"`
	// Lost: the recording lost records (the notes say which and where).
	Lost    bool     `json:"lost,omitempty"`
	Names   []string `json:"names"`
	Threads []Thread `json:"threads"`
	// Tree is a diff's call tree, 8 numbers a node: the parent's index
	// (0 the root, nodes counted from 1 in this order), the name's index,
	// NEW's total, self (ns) and calls, BASE's total, self and calls.
	Tree []int64 `json:"tree,omitempty"`
	Diff bool    `json:"diff"`
	// A diff's verdict of each name (Status: regressed, improved, same,
	// new; "" for none) and the change of its deciding time in percent,
	// the colours of its frames; Gone lists the methods only BASE called.
	Status []string  `json:"status,omitempty"`
	Change []float64 `json:"change,omitempty"`
	Gone   []string  `json:"gone,omitempty"`
	// Server: the page is served by `tracebeat view`: the flame graph is
	// Tree's, and the timeline asks the server for the calls of the window
	// it shows (/window), between TMin and TMax.
	Server bool  `json:"server,omitempty"`
	TMin   int64 `json:"t_min,omitempty"`
	TMax   int64 `json:"t_max,omitempty"`
	// LOD: a trace with more calls than the page holds one by one: its
	// levels of detail, which the page draws as a served page's windows
	// (the flame graph is Tree's; TMin and TMax are set).
	LOD *LOD `json:"lod,omitempty"`
}

// LOD is a page's levels of detail: at level j, 2^(40-j) ns a pixel, a
// call at least a pixel wide is a slice of its own, kept at the coarsest
// level where it is one (and drawn at every finer one); the narrower
// calls that start within a pixel of each other at a depth are merged
// into one slice of that level (flag 4).
type LOD struct {
	Levels []LODLevel `json:"levels"`
	// DetailNs is the finest level's pixel: zoomed in further, the page
	// shows that level, and says so.
	DetailNs int64 `json:"detail_ns"`
	// Calls are the calls the levels stand for; Limit is how many calls
	// a page holds one by one.
	Calls int64 `json:"calls"`
	Limit int   `json:"limit"`
	// Chunk is how many slices a chunk holds (the last of a list fewer).
	Chunk int `json:"chunk"`
}

// LODLevel is one level: its slices as lists of one thread and depth
// each, sorted by start, each in chunks that unpack alone, in script
// blocks of about a MiB. Lists has for each list: the thread's index in
// Threads, the depth, the slices, the chunks, then four numbers a chunk:
// its block, its offset there, its first slice's start, and the latest
// end of the list's slices up to its last. A slice is varints: the
// name's index, the start (a zigzag delta from the slice before in its
// chunk), the duration (ns), the flags.
type LODLevel struct {
	PxNs  int64   `json:"px_ns"`
	Lists []int64 `json:"lists"`
}

// Thread is a thread's slices: the script blocks (id "tbN") that hold them
// packed, as varints a slice: the name's index, the start (a zigzag delta
// from the slice before), the duration (ns), and depth<<2 | flags (1: no
// exit recorded, 2: started before the buffer).
type Thread struct {
	Pid    int64  `json:"pid"`
	Tid    int64  `json:"tid"`
	Name   string `json:"name"`
	Slices int    `json:"slices"`
	Blocks []int  `json:"blocks"`
	// Unsorted: the slices were packed as they ended; the page sorts them.
	Unsorted bool `json:"unsorted,omitempty"`
	// MaxDepth: a served page's thread, whose slices come later.
	MaxDepth int `json:"max_depth,omitempty"`
}

// WriteTail writes the page's data and code, after the blocks.
func WriteTail(w *bufio.Writer, meta Meta) error {
	if meta.Notes == nil {
		meta.Notes = []string{}
	}
	if meta.Names == nil {
		meta.Names = []string{}
	}
	if meta.Threads == nil {
		meta.Threads = []Thread{}
	}
	data, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	w.WriteString(`<script type="application/json" id="tbmeta">`)
	// A name holding "</script>" must not end the block.
	w.WriteString(strings.ReplaceAll(string(data), "<", `\u003c`))
	w.WriteString("</script>\n")
	w.WriteString(Tail())
	return nil
}
