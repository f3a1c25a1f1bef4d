package traceout

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/tracebeat/tracebeat/decode/htmlview"
)

// htmlWriter writes the page as the events come: the template's head, then
// each thread's slices packed (varints: name, start delta, duration, depth
// and flags; ns), base64 in a script block of its own, written when the
// thread ends or another starts; at close the names, the threads, the
// notes and the viewer's code. A thread's slices are held packed until
// then: a byte or two a number.
type htmlWriter struct {
	bw      *bufio.Writer
	threads map[threadKey]*htmlThread
	order   []*htmlThread
	names   map[string]int
	list    []string
	title   string
	clock   string
	process string
	notes   []string
	length  int64 // the recording's, ns from its start (0: not told)
	lost    bool  // the recording lost records
	blocks  int
	err     error
}

type htmlThread struct {
	pid, tid  int64
	name      string
	packed    []byte
	lastStart int64
	open      []int64     // ends of the open slices, for depths
	begun     []htmlBegun // B events not yet ended (systrace, markers)
	unsorted  bool        // slices written at their end (B/E): the page sorts them
	slices    int
	blocks    []int // the script blocks that hold its slices
}

type htmlBegun struct {
	name  int
	start int64
}

// htmlSlice flags.
const (
	htmlUnclosed = 1
	htmlNoEnter  = 2
)

func NewHTMLWriter(w io.Writer, title string) *htmlWriter {
	h := &htmlWriter{bw: bufio.NewWriterSize(w, 1<<16), threads: map[threadKey]*htmlThread{}, names: map[string]int{}, title: title}
	h.bw.WriteString(htmlview.Head(title))
	return h
}

func (h *htmlWriter) Write(e Event) error {
	if h.err != nil {
		return h.err
	}
	switch e.Ph {
	case 'M':
		name := ArgString(e.Args, "name")
		switch e.Name {
		case "process_name":
			if h.process == "" {
				h.process = name
			}
		case "thread_name":
			h.thread(e.Pid, e.Tid).name = name
		}
	case 'i':
		if e.Tid == 0 && len(e.Name) > 6 && e.Name[:6] == "clock:" {
			h.clock = e.Name
		}
	case 'X':
		t := h.thread(e.Pid, e.Tid)
		for n := len(t.open); n > 0 && t.open[n-1] <= e.TsNs; n = len(t.open) {
			t.open = t.open[:n-1]
		}
		dur := max(e.DurNs, 0)
		end := e.TsNs + dur
		if end < e.TsNs {
			end = math.MaxInt64
		}
		if n := len(t.open); n > 0 && end > t.open[n-1] {
			end = t.open[n-1]
			dur = end - e.TsNs
		}
		flags := uint64(0)
		if HasFlag(e.Args, "unclosed") {
			flags |= htmlUnclosed
		}
		if HasFlag(e.Args, "startedBeforeBuffer") {
			flags |= htmlNoEnter
		}
		t.slice(h.name(e.Name), e.TsNs, dur, len(t.open), flags)
		t.open = append(t.open, end)
		if len(t.packed) >= 1<<20 {
			h.flush(t)
		}
	case 'B':
		t := h.thread(e.Pid, e.Tid)
		t.begun = append(t.begun, htmlBegun{name: h.name(e.Name), start: e.TsNs})
	case 'E':
		t := h.thread(e.Pid, e.Tid)
		if n := len(t.begun); n > 0 {
			b := t.begun[n-1]
			t.begun = t.begun[:n-1]
			t.slice(b.name, b.start, max(e.TsNs-b.start, 0), n-1, 0)
			t.unsorted = true
		}
	}
	return h.err
}

// slice packs one slice: its name, start (a delta from the last slice
// packed), duration, depth and flags.
func (t *htmlThread) slice(name int, start, dur int64, depth int, flags uint64) {
	t.packed = binary.AppendUvarint(t.packed, uint64(name))
	t.packed = binary.AppendVarint(t.packed, start-t.lastStart)
	t.packed = binary.AppendUvarint(t.packed, uint64(dur))
	t.packed = binary.AppendUvarint(t.packed, uint64(depth)<<2|flags)
	t.lastStart = start
	t.slices++
}

// Note adds a line the page shows with the trace (decode's notes: what is
// missing, what is rough).
func (h *htmlWriter) Note(s string) { h.notes = append(h.notes, s) }

// Span takes the recording's length: the page says which part of it the
// calls it holds cover.
func (h *htmlWriter) Span(lengthNs int64, lost bool) { h.length, h.lost = lengthNs, lost }

func (h *htmlWriter) name(s string) int {
	if i, ok := h.names[s]; ok {
		return i
	}
	h.names[s] = len(h.list)
	h.list = append(h.list, s)
	return len(h.list) - 1
}

func (h *htmlWriter) thread(pid, tid int64) *htmlThread {
	k := threadKey{pid, tid}
	if t := h.threads[k]; t != nil {
		return t
	}
	// Another thread starts: the ones before have usually ended (a
	// recording's come one after another), their slices go to the page.
	for _, t := range h.order {
		h.flush(t)
	}
	t := &htmlThread{pid: pid, tid: tid, name: fmt.Sprintf("tid %d", tid)}
	h.threads[k] = t
	h.order = append(h.order, t)
	return t
}

// flush writes what t holds as a script block. Its packed slices continue
// in the next block: starts are deltas from the last slice written.
func (h *htmlWriter) flush(t *htmlThread) {
	if len(t.packed) == 0 {
		return
	}
	fmt.Fprintf(h.bw, `<script type="application/octet-stream" id="tb%d">`, h.blocks)
	enc := base64.NewEncoder(base64.StdEncoding, h.bw)
	enc.Write(t.packed)
	enc.Close()
	h.bw.WriteString("</script>\n")
	t.blocks = append(t.blocks, h.blocks)
	h.blocks++
	t.packed = t.packed[:0]
}

func (h *htmlWriter) Close() error {
	for _, t := range h.order {
		for n := len(t.begun); n > 0; n = len(t.begun) { // begun, never ended: to the last time
			b := t.begun[n-1]
			t.begun = t.begun[:n-1]
			t.slice(b.name, b.start, max(t.lastStart-b.start, 0), n-1, htmlUnclosed)
			t.unsorted = true
		}
		h.flush(t)
	}
	if h.err != nil {
		return h.err
	}
	meta := htmlview.Meta{Title: h.title, Process: h.process, Clock: h.clock, Notes: h.notes, Names: h.list, LengthNs: h.length, Lost: h.lost}
	for _, t := range h.order {
		if t.slices > 0 {
			meta.Threads = append(meta.Threads, htmlview.Thread{Pid: t.pid, Tid: t.tid, Name: t.name, Slices: t.slices, Blocks: t.blocks, Unsorted: t.unsorted})
		}
	}
	if err := htmlview.WriteTail(h.bw, meta); err != nil {
		return err
	}
	return h.bw.Flush()
}
