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

// htmlWriter writes the page: the template's head, then each thread's
// slices packed (varints: name, start delta, duration, depth and flags;
// ns), base64 in script blocks, then the names, the threads, the notes
// and the viewer's code. The slices are held packed until the end (a byte
// or two a number). Past limit calls, the page could not open quickly:
// the writer turns what it holds into levels of detail (lod.go) and takes
// the rest of the calls there.
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
	limit   int         // calls held one by one
	slices  int         // slices held
	lod     *lodBuilder // past the limit (nil: below it)
	budget  int         // the levels' bytes
	spill   spill       // the packed calls and the levels' chunks, as they fill
}

// htmlBlockBytes is about how many bytes of a thread's calls a script
// block holds; each full block goes to the spill file until the end.
const htmlBlockBytes = 1 << 20

// DefaultPageCalls is how many calls the page holds one by one: about 25
// MB, drawn in about 3 s.
const DefaultPageCalls = 4_000_000

// lodBudget is the bytes the levels of detail take packed: with base64's
// third more and the call tree, a page of about 60 MB.
const lodBudget = 44 << 20

type htmlThread struct {
	pid, tid  int64
	name      string
	packed    []byte     // its calls, in the order they started, since the last spilled
	spilled   []spillRef // the calls before, a block each (a whole number of slices)
	sections  []byte     // slices begun and ended (B, E): they come as they end
	lastStart int64
	secStart  int64
	open      []int64     // ends of the open slices, for depths
	begun     []htmlBegun // B events not yet ended (systrace, markers)
	slices    int
	blocks    []int // the script blocks that hold its slices
	lod       *lodThread
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
	return &htmlWriter{bw: bufio.NewWriterSize(w, 1<<16), threads: map[threadKey]*htmlThread{}, names: map[string]int{}, title: title,
		limit: DefaultPageCalls, budget: lodBudget}
}

// SetPageCalls sets how many calls the page holds one by one (0: the
// default); past them it draws levels of detail.
func (h *htmlWriter) SetPageCalls(n int) {
	if n > 0 {
		h.limit = n
	}
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
		h.call(t, h.name(e.Name), e.TsNs, dur, len(t.open), flags)
		t.open = append(t.open, end)
	case 'B':
		t := h.thread(e.Pid, e.Tid)
		t.begun = append(t.begun, htmlBegun{name: h.name(e.Name), start: e.TsNs})
	case 'E':
		t := h.thread(e.Pid, e.Tid)
		if n := len(t.begun); n > 0 {
			b := t.begun[n-1]
			t.begun = t.begun[:n-1]
			h.section(t, b.name, b.start, max(e.TsNs-b.start, 0), n-1, 0)
		}
	}
	if h.err == nil && h.spill.err != nil {
		h.err = fmt.Errorf("the page's spill file: %w", h.spill.err) // stop now, not at the end of the decode
	}
	return h.err
}

// call takes a call of t: packed, or into the levels of detail.
func (h *htmlWriter) call(t *htmlThread, name int, start, dur int64, depth int, flags uint64) {
	if h.lod != nil {
		h.lod.call(h.lodThread(t), int32(name), start, start+dur, depth, uint8(flags))
		return
	}
	t.packed = packSlice(t.packed, name, start-t.lastStart, dur, depth, flags)
	if len(t.packed) >= htmlBlockBytes {
		t.spilled = append(t.spilled, h.spill.add(t.packed))
		t.packed = t.packed[:0]
	}
	t.lastStart = start
	h.held(t)
}

// section takes a slice begun and ended (its end came after its callees').
func (h *htmlWriter) section(t *htmlThread, name int, start, dur int64, depth int, flags uint64) {
	if h.lod != nil {
		h.lod.slice(h.lodThread(t), int32(name), start, dur, depth, uint8(flags))
		return
	}
	t.sections = packSlice(t.sections, name, start-t.secStart, dur, depth, flags)
	t.secStart = start
	h.held(t)
}

// held counts a slice held, and past the limit turns to levels of detail.
func (h *htmlWriter) held(t *htmlThread) {
	t.slices++
	h.slices++
	if h.slices > h.limit {
		h.toLevels()
	}
}

// packSlice packs one slice: its name, start (a delta from the slice
// packed before), duration, depth and flags.
func packSlice(b []byte, name int, delta, dur int64, depth int, flags uint64) []byte {
	b = binary.AppendUvarint(b, uint64(name))
	b = binary.AppendVarint(b, delta)
	b = binary.AppendUvarint(b, uint64(dur))
	return binary.AppendUvarint(b, uint64(depth)<<2|flags)
}

// unpackSlices calls f for each slice packed in b, the first start a
// delta from last; it returns the last start.
func unpackSlices(b []byte, last int64, f func(name int, start, dur int64, depth int, flags uint64)) int64 {
	for len(b) > 0 {
		var v [4]uint64
		var delta int64
		for i := range v {
			var n int
			if i == 1 {
				delta, n = binary.Varint(b)
			} else {
				v[i], n = binary.Uvarint(b)
			}
			b = b[n:]
		}
		last += delta
		f(int(v[0]), last, int64(v[2]), int(v[3]>>2), v[3]&3)
	}
	return last
}

// toLevels turns the slices held into levels of detail, thread by
// thread, and lets them go.
func (h *htmlWriter) toLevels() {
	h.lod = newLODBuilder(h.budget, &h.spill)
	var buf []byte
	for _, t := range h.order {
		lt := h.lodThread(t)
		call := func(name int, start, dur int64, depth int, flags uint64) {
			h.lod.call(lt, int32(name), start, start+dur, depth, uint8(flags))
		}
		last := int64(0)
		for _, ref := range t.spilled {
			var err error
			if buf, err = h.spill.read(ref, buf); err != nil {
				h.err = err
				return
			}
			last = unpackSlices(buf, last, call)
		}
		unpackSlices(t.packed, last, call)
		unpackSlices(t.sections, 0, func(name int, start, dur int64, depth int, flags uint64) {
			h.lod.slice(lt, int32(name), start, dur, depth, uint8(flags))
		})
		t.packed, t.sections, t.spilled = nil, nil, nil
	}
}

func (h *htmlWriter) lodThread(t *htmlThread) *lodThread {
	if t.lod == nil {
		t.lod = h.lod.thread()
	}
	return t.lod
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
	t := &htmlThread{pid: pid, tid: tid, name: fmt.Sprintf("tid %d", tid)}
	h.threads[k] = t
	h.order = append(h.order, t)
	return t
}

// block writes b as a script block and returns its number.
func (h *htmlWriter) block(b []byte) int {
	fmt.Fprintf(h.bw, `<script type="application/octet-stream" id="tb%d">`, h.blocks)
	enc := base64.NewEncoder(base64.StdEncoding, h.bw)
	enc.Write(b)
	enc.Close()
	h.bw.WriteString("</script>\n")
	h.blocks++
	return h.blocks - 1
}

func (h *htmlWriter) Close() error {
	for _, t := range h.order {
		for n := len(t.begun); n > 0; n = len(t.begun) { // begun, never ended: to the last time
			b := t.begun[n-1]
			t.begun = t.begun[:n-1]
			h.section(t, b.name, b.start, max(max(t.lastStart, t.secStart)-b.start, 0), n-1, htmlUnclosed)
		}
	}
	defer h.spill.close()
	if h.err != nil {
		return h.err
	}
	h.bw.WriteString(htmlview.Head(h.title))
	meta := htmlview.Meta{Title: h.title, Process: h.process, Clock: h.clock, Notes: h.notes, Names: h.list, LengthNs: h.length, Lost: h.lost}
	if h.lod != nil {
		if err := h.writeLevels(&meta); err != nil {
			return err
		}
	} else {
		for _, t := range h.order {
			if err := h.writeThread(t, &meta); err != nil {
				return err
			}
		}
	}
	if err := htmlview.WriteTail(h.bw, meta); err != nil {
		return err
	}
	return h.bw.Flush()
}

// writeThread writes the blocks of a thread's slices held one by one: its
// calls, cut where a block may end, then its sections (the page sorts a
// thread that has them).
func (h *htmlWriter) writeThread(t *htmlThread, meta *htmlview.Meta) error {
	if t.slices == 0 {
		return nil
	}
	var buf []byte
	for _, ref := range t.spilled {
		var err error
		if buf, err = h.spill.read(ref, buf); err != nil {
			return err
		}
		t.blocks = append(t.blocks, h.block(buf))
	}
	if len(t.packed) > 0 {
		t.blocks = append(t.blocks, h.block(t.packed))
	}
	if len(t.sections) > 0 {
		// The page reads a thread's blocks as one chain of start deltas:
		// the sections continue from the last call's start.
		var b []byte
		last := t.lastStart
		unpackSlices(t.sections, 0, func(name int, start, dur int64, depth int, flags uint64) {
			b = packSlice(b, name, start-last, dur, depth, flags)
			last = start
		})
		t.blocks = append(t.blocks, h.block(b))
	}
	meta.Threads = append(meta.Threads, htmlview.Thread{Pid: t.pid, Tid: t.tid, Name: t.name, Slices: t.slices, Blocks: t.blocks, Unsorted: len(t.sections) > 0})
	return nil
}
