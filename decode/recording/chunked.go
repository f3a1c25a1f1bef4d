package recording

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Version 4 (RECORDING.md): a header, then chunks, each framed and checked
// on its own. A reader first walks every chunk (checking it, noting where
// each thread's blocks are), then reads a thread's blocks in order: a file
// cut or damaged anywhere reads up to there, and a stream that lost its
// oldest chunks to its bound reads from its first.

// Kinds of version 4 files: what wrote them.
const (
	KindExit   = 0 // ring mode, at exit
	KindStream = 1 // the whole run, written while the program ran
	KindDump   = 2 // a dump asked for while the program ran
	KindReport = 3 // a slow call's or a stall's report
	KindWrite  = 4 // Recorder.write, the program's own call
)

// Chunk types.
const (
	chunkBuilds   = 'B'
	chunkSections = 'N'
	chunkData     = 'T'
	chunkDropped  = 'D'
	chunkReport   = 'R'
	chunkFooter   = 'F'
	chunkClock    = 'C'
)

// Encodings of a block's tokens.
const (
	encRaw     = 0
	encDeflate = 1
	encLZ      = 2
)

// Report kinds.
const (
	ReportSlow  = 1
	ReportStall = 2
	ReportANR   = 3 // Android: a main-looper message still running after the threshold
	// ReportStartup is Android's cold start: Entered is when the
	// application was made (0: unknown), End the first Activity's first
	// focus, Threshold how long before the recording the process started
	// (0: unknown), ID a section naming the Activity ("cold start CLASS").
	ReportStartup = 4
	// ReportWarm is Android's warm start: Entered is when an Activity was
	// created with none of the app's alive after the cold start, End its
	// first focus, ID a section naming it ("warm start CLASS").
	ReportWarm = 5
)

const (
	chunkMagic  = "TBCK"
	chunkHeader = 13
	// maxChunk bounds a chunk's length: the runtime writes chunks of a few
	// MiB; a larger length is damage, not a reason to allocate.
	maxChunk = 1 << 30
	// v4HeaderLen is the fixed header after the magic and version.
	v4HeaderLen = 47
	// maxOpen bounds a block's open calls (a JVM stack overflows far below).
	maxOpen = 1 << 20
)

// Report is what a slow call's or a stall's report says of itself.
type Report struct {
	Kind      int    // ReportSlow, ReportStall, ReportANR, ReportStartup or ReportWarm
	Tid       int64  // the thread
	Thread    string // its name
	ID        int    // the call's method id (or SectionID); -1: unknown (a stall whose call's enter the ring lost)
	Entered   uint64 // when it started, ns after Start
	End       uint64 // when it returned (slow), or when the report was written (stall: still open)
	Threshold uint64 // the threshold it passed, ns
	From, To  uint64 // the window the report holds
}

// StartupPhase is one phase of a cold start: its time, or why it is
// unknown.
type StartupPhase struct {
	Name string
	Ns   uint64
	Why  string // not "": the time is unknown, for this reason
}

// StartupPhases are a ReportStartup's phases in the order they ran, as
// Matrix's StartupTracer reports them: the process before the app's code,
// the application, the first Activity.
func (r *Report) StartupPhases() []StartupPhase {
	phases := []StartupPhase{{Name: "the process's start to the first traced call", Ns: r.Threshold}}
	if r.Threshold == 0 {
		phases[0].Why = "unknown (the platform does not say, before API 24)"
	}
	if r.Entered == 0 {
		return append(phases, StartupPhase{Name: "the application and the first Activity, together (the main looper's messages were not seen)", Ns: r.End})
	}
	return append(phases,
		StartupPhase{Name: "the application (to the end of the main-looper message that made it)", Ns: r.Entered},
		StartupPhase{Name: "the first Activity (to its first focus)", Ns: r.End - r.Entered})
}

// Dropped is what a stream's bounds took: its oldest chunks.
type Dropped struct {
	Chunks, Records int64
	From, To        uint64 // the time the dropped records covered
	BySize          bool   // the size bound took them (else the age bound)
}

// block is where one thread's block is in the file, and what its header said.
type block struct {
	chunk   int64 // the chunk's sequence number
	off     int64 // the stored tokens
	stored  uint32
	raw     uint32
	enc     byte
	lost    uint64
	records uint32
	open    []openCall
	t0      uint64
}

type openCall struct {
	word uint32
	at   uint64
}

// v4Thread is a thread's part of a version 4 file: its blocks in order.
type v4Thread struct {
	Thread
	blocks []block
}

// v4 reads a version 4 file through ra.
type v4 struct {
	ra      io.ReaderAt
	size    int64
	src     string
	threads []*v4Thread
	byTid   map[int64]*v4Thread
	// notes say what the walk found wrong: damage, a cut.
	notes   []string
	lastEnd uint64 // the latest record time any data chunk covered
	footer  bool
	bound   uint64 // the largest clock bound a chunk stated
	// The thread being read.
	cur   *v4Thread
	curAt int // index of the next block
}

// readV4 walks a version 4 file whose magic and version are read; ra reads
// the file from its first byte.
func readV4(rec *Recording, ra io.ReaderAt, size int64) error {
	v := &v4{ra: ra, size: size, src: rec.src, byTid: map[int64]*v4Thread{}}
	rec.v4 = v
	var h [v4HeaderLen]byte
	if n, err := ra.ReadAt(h[:], 8); n < len(h) {
		if err == nil || err == io.EOF {
			return fmt.Errorf("%s: recording header: the file ends at byte %d, in its header (truncated?)", rec.src, 8+n)
		}
		return fmt.Errorf("%s: %w", rec.src, err)
	}
	be := binary.BigEndian
	rec.Start = time.UnixMilli(int64(be.Uint64(h[0:]))).UTC()
	rec.Pid = int64(be.Uint64(h[8:]))
	rec.Budget = int64(be.Uint64(h[16:]))
	if h[24] > 1 {
		return fmt.Errorf("%s: recording header: clock %d at byte %d is neither 0 (precise) nor 1 (shared)", rec.src, h[24], 8+24)
	}
	rec.Clock = RecordingClock{Shared: h[24] == 1, Tick: be.Uint64(h[25:]), ReadEvery: int64(be.Uint32(h[33:])), Adaptive: true}
	rec.Kind = int(h[37])
	if h[38] > TimeBoot {
		return fmt.Errorf("%s: recording header: time source %d at byte %d is neither 0 (System.nanoTime) nor 1 (SystemClock.elapsedRealtimeNanos)", rec.src, h[38], 8+38)
	}
	rec.TimeSource = int(h[38])
	rec.Origin = be.Uint64(h[39:])
	rec.Sections = map[int]string{}
	builds := map[string]bool{}
	off := int64(8 + v4HeaderLen)
	for off < size {
		typ, payload, next, err := v.chunk(off)
		if err != nil {
			v.notes = append(v.notes, err.Error())
			if next < 0 {
				break
			}
			off = next
			continue
		}
		if err := v.take(rec, typ, payload, off, builds); err != nil {
			v.notes = append(v.notes, fmt.Sprintf("%s: the chunk at byte %d: %v: skipped", rec.src, off, err))
		}
		off = next
	}
	for id := range builds {
		rec.Builds = append(rec.Builds, id)
	}
	sortStrings(rec.Builds)
	if !v.footer {
		rec.End = v.lastEnd
		rec.Cut = true
		what := "ends without its footer (the program was killed, or still runs, or the file was cut)"
		if rec.Kind != KindStream {
			what = "ends without its footer (cut or damaged)"
		}
		v.notes = append(v.notes, fmt.Sprintf("%s: the recording %s: it covers %s from its start, up to its last whole chunk", rec.src, what, FormatDuration(v.lastEnd)))
	}
	if d := rec.Dropped; d != nil {
		bound := "its size bound (-Dtracebeat.maxsize)"
		if !d.BySize {
			bound = "its age bound (-Dtracebeat.maxage)"
		}
		v.notes = append(v.notes, fmt.Sprintf("%s: the stream's oldest %d chunks went to %s: %d records, from %s to %s after the start",
			rec.src, d.Chunks, bound, d.Records, FormatDuration(d.From), FormatDuration(d.To)))
	}
	rec.End = max(rec.End, v.lastEnd)
	rec.Clock.LongestGap = max(rec.Clock.LongestGap, v.bound)
	rec.Threads = len(v.threads)
	rec.Notes = append(rec.Notes, v.notes...)
	return nil
}

// chunk reads the chunk at off: its type and checked payload, and where
// the next begins. On damage it says what, and where reading goes on (-1:
// nowhere, the file is cut).
func (v *v4) chunk(off int64) (byte, []byte, int64, error) {
	var h [chunkHeader]byte
	n, err := v.ra.ReadAt(h[:], off)
	if n < chunkHeader {
		if err != nil && err != io.EOF {
			return 0, nil, -1, fmt.Errorf("%s: byte %d: %v", v.src, off, err)
		}
		return 0, nil, -1, fmt.Errorf("%s: the file is cut at byte %d, in a chunk's header (%d of %d bytes)", v.src, v.size, n, chunkHeader)
	}
	if string(h[:4]) != chunkMagic {
		next := v.resync(off + 1)
		if next < 0 {
			return 0, nil, -1, fmt.Errorf("%s: no chunk at byte %d (damaged), nor after it: the rest of the file (%d bytes) is skipped", v.src, off, v.size-off)
		}
		return 0, nil, next, fmt.Errorf("%s: no chunk at byte %d (damaged): %d bytes skipped", v.src, off, next-off)
	}
	typ := h[4]
	length := int64(binary.BigEndian.Uint32(h[5:]))
	sum := binary.BigEndian.Uint32(h[9:])
	end := off + chunkHeader + length
	if length > maxChunk {
		next := v.resync(off + 1)
		return 0, nil, next, fmt.Errorf("%s: the chunk at byte %d claims %d bytes (damaged): skipped", v.src, off, length)
	}
	if end > v.size {
		return 0, nil, -1, fmt.Errorf("%s: the file is cut at byte %d, in the last chunk (%s at byte %d: %d of its %d bytes)", v.src, v.size, chunkName(typ), off, v.size-off-chunkHeader, length)
	}
	payload := make([]byte, length)
	if _, err := v.ra.ReadAt(payload, off+chunkHeader); err != nil && !(err == io.EOF && int64(len(payload)) == length) {
		return 0, nil, -1, fmt.Errorf("%s: byte %d: %v", v.src, off+chunkHeader, err)
	}
	crc := crc32.NewIEEE()
	crc.Write([]byte{typ})
	crc.Write(payload)
	if crc.Sum32() != sum {
		next := end
		if v.resync(end) != end { // the length itself may be what is damaged
			next = v.resync(off + 1)
		}
		if next < 0 {
			return 0, nil, -1, fmt.Errorf("%s: the chunk at byte %d is damaged (its checksum differs): the rest of the file is skipped", v.src, off)
		}
		return 0, nil, next, fmt.Errorf("%s: the chunk at byte %d (%s) is damaged (its checksum differs): skipped", v.src, off, chunkName(typ))
	}
	return typ, payload, end, nil
}

// resync finds the next chunk's magic at or after off, or -1.
func (v *v4) resync(off int64) int64 {
	buf := make([]byte, 64<<10)
	for off < v.size {
		n, _ := v.ra.ReadAt(buf, off)
		if n < len(chunkMagic) {
			return -1
		}
		if i := bytes.Index(buf[:n], []byte(chunkMagic)); i >= 0 {
			return off + int64(i)
		}
		off += int64(n - len(chunkMagic) + 1)
	}
	return -1
}

func chunkName(typ byte) string {
	switch typ {
	case chunkBuilds:
		return "builds"
	case chunkSections:
		return "section names"
	case chunkData:
		return "records"
	case chunkDropped:
		return "what the bound dropped"
	case chunkReport:
		return "report"
	case chunkFooter:
		return "footer"
	case chunkClock:
		return "clock"
	}
	return fmt.Sprintf("type %q", typ)
}

// take reads one checked chunk's payload.
func (v *v4) take(rec *Recording, typ byte, p []byte, off int64, builds map[string]bool) error {
	r := &payloadReader{b: p}
	switch typ {
	case chunkBuilds:
		n := r.u16()
		if int(n) > maxRecordingBuilds {
			return fmt.Errorf("%d builds (at most %d expected)", n, maxRecordingBuilds)
		}
		for range n {
			if id := r.str(); r.err == nil {
				builds[id] = true
			}
		}
	case chunkSections:
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			idx := r.u32()
			name := r.str()
			if r.err == nil {
				rec.Sections[int(idx&recordingIDMask)] = name
			}
		}
	case chunkData:
		return v.data(r, off)
	case chunkDropped:
		d := &Dropped{Chunks: int64(r.u64()), Records: int64(r.u64()), From: r.u64(), To: r.u64()}
		d.BySize = r.u8() == 1
		if r.err == nil {
			rec.Dropped = d
		}
	case chunkReport:
		rp := &Report{Kind: int(r.u8()), Tid: int64(r.u64()), Thread: r.str()}
		if w := r.u32(); w == 0xFFFFFFFF {
			rp.ID = -1 // a stalled call whose enter the thread's ring no longer held
		} else {
			rp.ID = wordID(w)
		}
		rp.Entered, rp.End, rp.Threshold, rp.From, rp.To = r.u64(), r.u64(), r.u64(), r.u64(), r.u64()
		if r.err == nil {
			rec.Report = rp
		}
	case chunkClock:
		bound, sum, n := r.u64(), r.u64(), r.u64()
		if r.err == nil {
			v.bound = max(v.bound, bound)
			if n > 0 {
				rec.Clock.Typical = sum / n // the last such chunk's: its figures add up from the start
				rec.Clock.TypicalKnown = true
			}
		}
	case chunkFooter:
		end, bound := r.u64(), r.u64()
		r.u8()
		if r.err == nil {
			v.footer = true
			rec.End = max(rec.End, min(end, MaxTime))
			v.bound = max(v.bound, bound)
		}
	}
	return r.err
}

// data notes where each thread's blocks of a data chunk are.
func (v *v4) data(r *payloadReader, off int64) error {
	seq := r.u64()
	r.u64() // first time: the blocks say theirs
	last := r.u64()
	bound := r.u64()
	n := r.u32()
	if r.err != nil {
		return r.err
	}
	for i := uint32(0); i < n; i++ {
		tid := int64(r.u64())
		name := r.str()
		flags := r.u8()
		b := block{chunk: int64(seq), lost: r.u64(), records: r.u32()}
		open := r.u32()
		if r.err != nil {
			return r.err
		}
		if open > maxOpen || int(open)*12 > len(r.b)-r.off {
			return fmt.Errorf("block %d of %d: %d open calls: damaged", i+1, n, open)
		}
		b.open = make([]openCall, open)
		for k := range b.open {
			b.open[k] = openCall{word: r.u32(), at: r.u64()}
		}
		b.t0 = r.u64()
		for _, o := range b.open {
			if o.at >= MaxTime {
				return fmt.Errorf("block %d of %d: an open call at %d ns (over 146 years): damaged", i+1, n, o.at)
			}
		}
		if b.t0 >= MaxTime {
			return fmt.Errorf("block %d of %d: a first time of %d ns (over 146 years): damaged", i+1, n, b.t0)
		}
		b.enc = r.u8()
		b.raw = r.u32()
		b.stored = r.u32()
		if r.err != nil {
			return r.err
		}
		if int64(b.stored) > int64(len(r.b)-r.off) {
			return fmt.Errorf("block %d of %d: %d bytes of tokens where %d are left: damaged", i+1, n, b.stored, len(r.b)-r.off)
		}
		if b.enc > encLZ {
			return fmt.Errorf("block %d of %d: encoding %d is not 0 (raw), 1 (deflate) or 2 (LZ4)", i+1, n, b.enc)
		}
		if b.enc == encRaw && b.stored != b.raw || b.raw > maxChunk {
			return fmt.Errorf("block %d of %d: %d token bytes stored as %d: damaged", i+1, n, b.raw, b.stored)
		}
		b.off = off + chunkHeader + int64(r.off)
		r.off += int(b.stored)
		t := v.byTid[tid]
		if t == nil {
			t = &v4Thread{Thread: Thread{Index: len(v.threads), Tid: tid}}
			v.byTid[tid] = t
			v.threads = append(v.threads, t)
		}
		t.Name = name
		t.Virtual = flags&VirtualFlag != 0
		t.Lost += int64(b.lost)
		t.Records += b.records
		t.blocks = append(t.blocks, b)
	}
	v.lastEnd = max(v.lastEnd, min(last, MaxTime))
	v.bound = max(v.bound, bound)
	return nil
}

// wordID is a token word's id: a method id, or SectionID for a section.
func wordID(w uint32) int {
	id := int(w & recordingIDMask)
	if w&recordingSection != 0 {
		return SectionID(id)
	}
	return id
}

// payloadReader reads a checked payload; the first read past its end sets err.
type payloadReader struct {
	b   []byte
	off int
	err error
}

func (r *payloadReader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if len(r.b)-r.off < n {
		r.err = fmt.Errorf("it ends at byte %d of %d, %d bytes short", r.off, len(r.b), n-(len(r.b)-r.off))
		return false
	}
	return true
}

func (r *payloadReader) u8() byte {
	if !r.need(1) {
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *payloadReader) u16() uint16 {
	if !r.need(2) {
		return 0
	}
	r.off += 2
	return binary.BigEndian.Uint16(r.b[r.off-2:])
}

func (r *payloadReader) u32() uint32 {
	if !r.need(4) {
		return 0
	}
	r.off += 4
	return binary.BigEndian.Uint32(r.b[r.off-4:])
}

func (r *payloadReader) u64() uint64 {
	if !r.need(8) {
		return 0
	}
	r.off += 8
	return binary.BigEndian.Uint64(r.b[r.off-8:])
}

func (r *payloadReader) str() string {
	n := int(r.u16())
	if !r.need(n) {
		return ""
	}
	r.off += n
	s := string(r.b[r.off-n : r.off])
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, string(utf8.RuneError))
	}
	return s
}

// spool copies what is left of r, after the 8 bytes of magic and version
// read already, into a temporary file that reads like the whole file.
func spool(r *bufio.Reader, src string) (io.ReaderAt, int64, func(), error) {
	f, err := os.CreateTemp("", "tracebeat-recording-*")
	if err != nil {
		return nil, 0, nil, fmt.Errorf("%s: a version 4 recording is read through a temporary file: %w", src, err)
	}
	done := func() { f.Close(); os.Remove(f.Name()) }
	head := make([]byte, 8) // stands in for the magic and version, which are not read again
	n, err := f.Write(head)
	var m int64
	if err == nil {
		m, err = io.Copy(f, r)
	}
	if err != nil {
		done()
		return nil, 0, nil, fmt.Errorf("%s: copying to a temporary file: %w", src, err)
	}
	return f, int64(n) + m, done, nil
}

func sortStrings(s []string) { slices.Sort(s) }
