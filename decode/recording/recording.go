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
// build identities and the virtual-thread flag).
const RecordingVersion = 3

// recordingVirtual is the thread flag of a virtual thread (version 3).
const VirtualFlag = 1

// Word bits of a recording's records.
const (
	ExitFlag         = 1 << 31
	recordingSection = 1 << 30
	recordingIDMask  = recordingSection - 1
)

// Limits on counts in a header, far above what a runtime writes, so that a
// damaged file fails with a message instead of an allocation.
const (
	maxRecordingSections = 1 << 24
	maxRecordingThreads  = 1 << 24
	maxRecordingBuilds   = 1 << 10
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

// ReadRecording reads a recording's header from r; src names it in errors.
func Read(r *bufio.Reader, src string) (*Recording, error) {
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
	startMs, err := rec.u64("start time")
	if err != nil {
		return nil, err
	}
	rec.Start = time.UnixMilli(int64(startMs)).UTC()
	if rec.End, err = rec.u64("end time"); err != nil {
		return nil, err
	}
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

// NextThread skips what is left of the current thread and reads the next
// thread's header; io.EOF after the last.
func (rec *Recording) NextThread() (*Thread, error) {
	if rec.pending != nil && rec.left > 0 {
		if err := rec.Records(func(bool, int, uint64) error { return nil }); err != nil {
			return nil, err
		}
	}
	if rec.next == rec.Threads {
		if _, err := rec.r.ReadByte(); err == nil {
			return nil, fmt.Errorf("%s: data after the last thread at byte %d", rec.src, rec.off)
		}
		return nil, io.EOF
	}
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
	rec.next++
	rec.pending, rec.left, rec.seen, rec.timed = t, t.Records, 0, false
	if rec.Version >= 2 {
		if rec.left, err = rec.u32(what + ": slot count"); err != nil {
			return nil, err
		}
		if rec.left < t.Records {
			return nil, fmt.Errorf("%s: %s: %d records in %d slots: damaged file?", rec.src, what, t.Records, rec.left)
		}
	}
	return t, nil
}

// Records calls fn for each record of the current thread, oldest first:
// enter or exit, the id (a method id, or SectionID(i) for the i-th section
// name) and the time in nanoseconds after Start.
func (rec *Recording) Records(fn func(enter bool, id int, t uint64) error) error {
	if rec.Version >= 2 {
		return rec.slots(fn)
	}
	var b [12]byte
	t := rec.pending
	for rec.left > 0 {
		if _, err := io.ReadFull(rec.r, b[:]); err != nil {
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
		if err := fn(word&ExitFlag == 0, id, binary.BigEndian.Uint64(b[:8])); err != nil {
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

func truncated(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errors.New("the file ends here (truncated?)")
	}
	return err
}
