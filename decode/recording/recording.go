package recording

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// RecordingMagic starts every file of tracebeat's JVM runtime
// (RECORDING.md describes the format).
const RecordingMagic = "TBREC\x00"

// RecordingVersion is the newest format version this package reads; it
// reads every version since 1 (version 2 added the clock, version 3 the
// build identities and the virtual-thread flag, version 4 chunks and
// tokens: chunked.go).
const RecordingVersion = 4

// recordingVirtual is the thread flag of a virtual thread (version 3).
const VirtualFlag = 1

// Word bits of a recording's records.
const (
	ExitFlag         = 1 << 31
	recordingSection = 1 << 30
	recordingIDMask  = recordingSection - 1
)

// MaxTime bounds a record's time (ns after the start, 146 years): a time
// past it is damage, and would overflow what outputs compute from it.
const MaxTime = 1 << 62

// Limits on counts in a header, far above what a runtime writes, so that a
// damaged file fails with a message instead of an allocation.
const (
	maxRecordingSections = 1 << 24
	maxRecordingThreads  = 1 << 24
	maxRecordingBuilds   = 1 << 10
)

// Time sources.
const (
	TimeNano = 0
	TimeBoot = 1
)

// Recording reads a recording: the header at once, then one thread at a
// time (NextThread, then Records), so memory does not grow with the file.
type Recording struct {
	Version int
	// Start is the wall-clock time of the recording's start; record times
	// are nanoseconds after it.
	Start time.Time
	// End is when the file was written, in nanoseconds after Start: the
	// time at which calls still open are closed.
	End      uint64
	Pid      int64
	Budget   int64          // the runtime's memory budget in bytes
	Sections map[int]string // names of sections that were not method ids
	Threads  int            // number of threads in the file
	Clock    RecordingClock
	// Builds are the build identities the runtime found on the class path
	// (methodmap.BuildID of the maps of the builds it ran), sorted; none
	// before version 3, or when no output of `tracebeat instrument` was
	// found.
	Builds []string
	// Version 4: what wrote the file (KindExit, KindStream, ...), the
	// time source's value at the start, what a report says of itself,
	// what a stream's bounds took.
	Kind   int
	Origin uint64
	// TimeSource is what the times were read from: TimeNano
	// (System.nanoTime) or TimeBoot (Android's
	// SystemClock.elapsedRealtimeNanos, CLOCK_BOOTTIME, the clock
	// Perfetto's traces use by default). Origin is its value at the start.
	TimeSource int
	Report     *Report
	Dropped    *Dropped
	// Cut: the file ends before its footer (version 4) or inside a thread
	// (version 3 and older); what it holds up to there is read.
	Cut bool
	// Notes say what reading found wrong (damage, a cut), for the user;
	// they grow while threads are read.
	Notes []string
	// OnOpen, when set, is called where a version 4 file's calls open
	// differ from what the records so far left open (see OpenHandler).
	OnOpen OpenHandler

	v4      *v4
	cleanup func()
	r       *bufio.Reader
	src     string
	off     int64 // bytes consumed
	next    int   // index of the next thread
	pending *Thread
	left    uint32 // records (version 1) or slots (version 2) of pending not yet read
	seen    uint32 // version 2: records of pending read so far
	timed   bool   // version 2: a time mark of pending has been read
	time    uint64 // version 2: the time of the last mark
	high    uint64 // version 2: the high bits of the last mark's time
}

// RecordingThread is one thread's part of a recording.
type Thread struct {
	Index   int // 0-based position in the file
	Tid     int64
	Name    string
	Lost    int64  // records the runtime could not keep (oldest first)
	Records uint32 // records that follow
	Virtual bool   // a virtual thread (Java 21)
}

// Label is how outputs name the thread: `tid 12 "main"`.
func (t *Thread) Label() string {
	if t.Virtual {
		return fmt.Sprintf("virtual tid %d %q", t.Tid, t.Name)
	}
	return fmt.Sprintf("tid %d %q", t.Tid, t.Name)
}

// Read reads a recording's header from r; src names it in errors. A
// version 4 file is read through a copy in a temporary file (Close removes
// it); ReadAt reads a file in place.
func Read(r *bufio.Reader, src string) (*Recording, error) {
	return ReadAt(r, nil, 0, src)
}

// ReadAt is Read, with ra (of size bytes) reading the same file from its
// start, for a version 4 file's chunks; nil makes Read's temporary copy.
func ReadAt(r *bufio.Reader, ra io.ReaderAt, size int64, src string) (*Recording, error) {
	rec := &Recording{r: r, src: src}
	magic := make([]byte, len(RecordingMagic))
	if err := rec.full(magic, "magic"); err != nil {
		return nil, err
	}
	if string(magic) != RecordingMagic {
		return nil, fmt.Errorf("%s: not a tracebeat recording (no %q at the start)", src, strings.TrimRight(RecordingMagic, "\x00"))
	}
	version, err := rec.u16("version")
	if err != nil {
		return nil, err
	}
	if version < 1 || version > RecordingVersion {
		return nil, fmt.Errorf("%s: recording format version %d; this tracebeat reads versions 1 to %d (use the tracebeat whose runtime wrote it)", src, version, RecordingVersion)
	}
	rec.Version = int(version)
	if version >= 4 {
		if ra == nil {
			var err error
			if ra, size, rec.cleanup, err = spool(r, src); err != nil {
				return nil, err
			}
		}
		if err := readV4(rec, ra, size); err != nil {
			rec.Close()
			return nil, err
		}
		return rec, nil
	}
	startMs, err := rec.u64("start time")
	if err != nil {
		return nil, err
	}
	rec.Start = time.UnixMilli(int64(startMs)).UTC()
	if rec.End, err = rec.u64("end time"); err != nil {
		return nil, err
	}
	rec.End = min(rec.End, MaxTime)
	pid, err := rec.u64("process id")
	if err != nil {
		return nil, err
	}
	rec.Pid = int64(pid)
	budget, err := rec.u64("budget")
	if err != nil {
		return nil, err
	}
	rec.Budget = int64(budget)
	if version >= 2 {
		if rec.Clock, err = rec.clock(); err != nil {
			return nil, err
		}
		rec.Clock.Adaptive = version >= 3
	}
	if version >= 3 {
		n, err := rec.u16("build count")
		if err != nil {
			return nil, err
		}
		if int(n) > maxRecordingBuilds {
			return nil, fmt.Errorf("%s: recording header: %d builds at byte %d (at most %d expected): damaged file?", src, n, rec.off-2, maxRecordingBuilds)
		}
		for range n {
			id, err := rec.str("build id")
			if err != nil {
				return nil, err
			}
			rec.Builds = append(rec.Builds, id)
		}
	}
	n, err := rec.count("section names", maxRecordingSections)
	if err != nil {
		return nil, err
	}
	// Sized by what a header says only up to a point: a damaged count
	// would take memory before the names it claims are found missing.
	rec.Sections = make(map[int]string, min(n, 1024))
	for i := 0; i < n; i++ {
		idx, err := rec.u32("section index")
		if err != nil {
			return nil, err
		}
		name, err := rec.str("section name")
		if err != nil {
			return nil, err
		}
		rec.Sections[int(idx&recordingIDMask)] = name
	}
	if rec.Threads, err = rec.count("threads", maxRecordingThreads); err != nil {
		return nil, err
	}
	return rec, nil
}

// Close removes what reading made (a version 4 file's temporary copy).
func (rec *Recording) Close() {
	if rec.cleanup != nil {
		rec.cleanup()
		rec.cleanup = nil
	}
}

// NextThread skips what is left of the current thread and reads the next
// thread's header; io.EOF after the last.
func (rec *Recording) NextThread() (*Thread, error) {
	if v := rec.v4; v != nil {
		if rec.next == len(v.threads) {
			return nil, io.EOF
		}
		v.cur, v.curAt = v.threads[rec.next], 0
		rec.next++
		rec.pending = &v.cur.Thread
		return rec.pending, nil
	}
	if rec.pending != nil && rec.left > 0 {
		if err := rec.Records(func(bool, int, uint64) error { return nil }); err != nil {
			return nil, err
		}
	}
	if rec.next == rec.Threads {
		if rec.Cut {
			return nil, io.EOF
		}
		if _, err := rec.r.ReadByte(); err == nil {
			return nil, fmt.Errorf("%s: data after the last thread at byte %d", rec.src, rec.off)
		}
		return nil, io.EOF
	}
	t, err := rec.threadHeader()
	if errors.Is(err, errCut) {
		rec.cut(rec.next, fmt.Sprintf("in the header of thread %d of %d", rec.next+1, rec.Threads))
		return nil, io.EOF
	}
	return t, err
}

// threadHeader reads the next thread's header (versions 1 to 3).
func (rec *Recording) threadHeader() (*Thread, error) {
	t := &Thread{Index: rec.next}
	what := fmt.Sprintf("thread %d", rec.next+1)
	tid, err := rec.u64(what + ": id")
	if err != nil {
		return nil, err
	}
	t.Tid = int64(tid)
	if t.Name, err = rec.str(what + ": name"); err != nil {
		return nil, err
	}
	if rec.Version >= 3 {
		var flags [1]byte
		if err := rec.full(flags[:], what+": flags"); err != nil {
			return nil, err
		}
		t.Virtual = flags[0]&VirtualFlag != 0
	}
	lost, err := rec.u64(what + ": lost count")
	if err != nil {
		return nil, err
	}
	t.Lost = int64(lost)
	if t.Records, err = rec.u32(what + ": record count"); err != nil {
		return nil, err
	}
	left := t.Records
	if rec.Version >= 2 {
		if left, err = rec.u32(what + ": slot count"); err != nil {
			return nil, err
		}
		if left < t.Records {
			return nil, fmt.Errorf("%s: %s: %d records in %d slots: damaged file?", rec.src, what, t.Records, left)
		}
	}
	// Counted once its header is whole: a cut inside it names this thread.
	rec.next++
	rec.pending, rec.left, rec.seen, rec.timed = t, left, 0, false
	return t, nil
}

// Records calls fn for each record of the current thread, oldest first:
// enter or exit, the id (a method id, or SectionID(i) for the i-th section
// name) and the time in nanoseconds after Start.
func (rec *Recording) Records(fn func(enter bool, id int, t uint64) error) error {
	if rec.v4 != nil {
		return rec.v4.records(rec, fn)
	}
	if rec.Version >= 2 {
		return rec.slots(fn)
	}
	var b [12]byte
	t := rec.pending
	for rec.left > 0 {
		if _, err := io.ReadFull(rec.r, b[:]); err != nil {
			if errors.Is(truncated(err), errCut) {
				rec.cut(t.Index, fmt.Sprintf("in thread %d (%s), at its record %d of %d", t.Index+1, t.Label(), t.Records-rec.left+1, t.Records))
				return nil
			}
			return fmt.Errorf("%s: thread %d (%s): record %d of %d: %w", rec.src, t.Index+1, t.Label(),
				t.Records-rec.left+1, t.Records, truncated(err))
		}
		rec.off += int64(len(b))
		// Counted before fn runs, so that Where names this record, as it
		// does in version 2 (it named the one before).
		rec.left--
		word := binary.BigEndian.Uint32(b[8:])
		id := int(word & recordingIDMask)
		if word&recordingSection != 0 {
			id = SectionID(id)
		}
		at := binary.BigEndian.Uint64(b[:8])
		if at >= MaxTime {
			return fmt.Errorf("%s: thread %d (%s): record %d of %d: a time of %d ns after the start (over 146 years): damaged file?", rec.src, t.Index+1, t.Label(),
				t.Records-rec.left, t.Records, at)
		}
		if err := fn(word&ExitFlag == 0, id, at); err != nil {
			return err
		}
	}
	return nil
}

// Where is the position for messages: the thread and record being read.
func (rec *Recording) Where() string {
	t := rec.pending
	if t == nil {
		return fmt.Sprintf("byte %d", rec.off)
	}
	if v := rec.v4; v != nil {
		return fmt.Sprintf("thread %d (%s) block %d", t.Index+1, t.Label(), v.curAt)
	}
	if rec.Version >= 2 {
		return fmt.Sprintf("thread %d (%s) record %d", t.Index+1, t.Label(), rec.seen)
	}
	return fmt.Sprintf("thread %d (%s) record %d", t.Index+1, t.Label(), t.Records-rec.left)
}

// SectionID is the id that stands for section name i in Frames: above
// every method id, so the two never mix.
func SectionID(i int) int { return recordingSection | i }

// SectionIndex reports whether id is a SectionID, and which.
func SectionIndex(id int) (int, bool) {
	if id&recordingSection != 0 {
		return id & recordingIDMask, true
	}
	return 0, false
}

// clock reads version 2's clock fields.
func (rec *Recording) clock() (RecordingClock, error) {
	var c RecordingClock
	var mode [1]byte
	if err := rec.full(mode[:], "clock"); err != nil {
		return c, err
	}
	if mode[0] > 1 {
		return c, fmt.Errorf("%s: recording header: clock %d at byte %d is neither 0 (precise) nor 1 (shared)", rec.src, mode[0], rec.off-1)
	}
	c.Shared = mode[0] == 1
	var err error
	if c.Tick, err = rec.u64("clock tick"); err != nil {
		return c, err
	}
	every, err := rec.u32("clock reads")
	if err != nil {
		return c, err
	}
	c.ReadEvery = int64(every)
	if c.LongestGap, err = rec.u64("longest clock gap"); err != nil {
		return c, err
	}
	return c, nil
}

func (rec *Recording) full(b []byte, what string) error {
	if _, err := io.ReadFull(rec.r, b); err != nil {
		return fmt.Errorf("%s: recording header: %s at byte %d: %w", rec.src, what, rec.off, truncated(err))
	}
	rec.off += int64(len(b))
	return nil
}

func (rec *Recording) u16(what string) (uint16, error) {
	var b [2]byte
	err := rec.full(b[:], what)
	return binary.BigEndian.Uint16(b[:]), err
}

func (rec *Recording) u32(what string) (uint32, error) {
	var b [4]byte
	err := rec.full(b[:], what)
	return binary.BigEndian.Uint32(b[:]), err
}

func (rec *Recording) u64(what string) (uint64, error) {
	var b [8]byte
	err := rec.full(b[:], what)
	return binary.BigEndian.Uint64(b[:]), err
}

func (rec *Recording) count(what string, limit int) (int, error) {
	n, err := rec.u32(what + " count")
	if err != nil {
		return 0, err
	}
	if n > uint32(limit) {
		return 0, fmt.Errorf("%s: recording header: %d %s at byte %d (at most %d expected): damaged file?", rec.src, n, what, rec.off-4, limit)
	}
	return int(n), nil
}

func (rec *Recording) str(what string) (string, error) {
	n, err := rec.u16(what + " length")
	if err != nil {
		return "", err
	}
	b := make([]byte, n)
	if err := rec.full(b, what); err != nil {
		return "", err
	}
	return strings.ToValidUTF8(string(b), string(utf8.RuneError)), nil
}

// errCut is what a read past the end of a file wraps.
var errCut = errors.New("the file ends here (truncated?)")

func truncated(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errCut
	}
	return err
}

// cut ends the reading of a file that ends inside its threads (a kill, a
// full disk, a copy interrupted): what was read is kept, and a note says
// what is missing.
func (rec *Recording) cut(index int, what string) {
	rec.Cut = true
	note := fmt.Sprintf("%s: the file is cut at byte %d, %s", rec.src, rec.off, what)
	switch after := rec.Threads - index - 1; {
	case after == 1:
		note += "; the thread after it is missing"
	case after > 1:
		note += fmt.Sprintf("; the %d threads after it are missing", after)
	}
	rec.Notes = append(rec.Notes, note+": what is there up to the cut is read")
	rec.next, rec.left, rec.pending = rec.Threads, 0, nil
}
