package decode

import (
	"fmt"
	"math"
)

// Frame is one method call rebuilt from a buffer or a recording. Times are
// in the input's unit: milliseconds for AppMethodBeat buffers, nanoseconds
// for recordings.
type Frame struct {
	// Seq orders frames by entry: the index of the enter record among all
	// enter records (0, 1, ...). Frames whose enter is not in the buffer get
	// -1, -2, ... in the order their exits appear; each encloses all before it.
	Seq      int64
	MethodID int
	Start    uint64
	End      uint64
	// Depth is the number of calls open when this one was entered (0 for a
	// top-level call and for a frame without enter).
	Depth int
	// OrphansBefore is how many frames without enter had been seen when this
	// frame was entered; AbsoluteDepth needs it.
	OrphansBefore int64
	// Unclosed: the exit record is missing (an exception skipped o(), or the
	// buffer ended first); the frame was closed at its caller's exit or at
	// the last timestamp.
	Unclosed bool
	// NoEnter: the enter record is missing because the buffer starts in the
	// middle of this call (ring-buffer wrap); Start is the first timestamp.
	NoEnter bool
}

// Cost is End-Start, or 0 if the clock went backwards.
func (f Frame) Cost() uint64 {
	if f.End < f.Start {
		return 0
	}
	return f.End - f.Start
}

// Int64 is a time or duration of a frame as the writers take it:
// saturated at math.MaxInt64, so that a damaged input's huge times never
// turn into negative ones.
func Int64(u uint64) int64 {
	if u > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(u)
}

// AbsoluteDepth is the frame's nesting depth in the whole buffer, once the
// total number of frames without enter is known: each of them encloses every
// frame seen before it.
func (f Frame) AbsoluteDepth(totalOrphans int64) int {
	if f.NoEnter {
		// The orphan's index is -1-Seq; the orphans after it enclose it.
		return int(totalOrphans + f.Seq)
	}
	return f.Depth + int(totalOrphans-f.OrphansBefore)
}

// PairStats counts what pairing saw, for the summary and for warnings.
type PairStats struct {
	Records       int64 // records read, including empty slots
	EmptySlots    int64 // all-zero records (unused buffer slots), skipped
	Enters        int64
	Exits         int64
	Frames        int64 // frames emitted
	NoEnter       int64 // frames whose enter was not in the buffer
	Unclosed      int64 // frames whose exit was not in the buffer
	StrayExits    int64 // exits matching no open frame while frames were open: ignored
	FirstStray    string
	TimeBackwards int64 // records whose time is below the previous record's
	FirstBackward string
	First         uint64
	Last          uint64 // the latest time seen
	MaxDepth      int
	HaveTime      bool
}

type openFrame struct {
	id            int
	seq           int64
	start         uint64
	orphansBefore int64
}

// DefaultMaxDepth bounds the pairing stack. Far deeper than any JVM stack
// (a thread's default stack overflows at tens of thousands of frames), so
// only malformed input (enters without exits) reaches it.
const DefaultMaxDepth = 1 << 20

// Pairer matches enter and exit records into Frames, streaming: it holds
// only the open calls. Frames are emitted when they close, so callees come
// before their callers (post-order).
//
// Rules, in the order they are tried for an exit record of method m:
//   - m is the innermost open call: it closes.
//   - m is open further out: the calls inside it lost their exit (an
//     exception escaped them without o()); they close, marked Unclosed, at
//     this exit's time, then m closes.
//   - nothing is open: the buffer started inside m (ring-buffer wrap); m is
//     a NoEnter frame from the first timestamp to this exit.
//   - otherwise the exit matches nothing; it is counted as stray and ignored.
//
// Calls still open at the end close Unclosed at the latest timestamp.
type Pairer struct {
	emit     func(Frame) error
	where    func() string
	maxDepth int
	stack    []openFrame
	orphans  int64
	stats    PairStats
}

// NewPairer calls emit for every frame. where, if not nil, describes the
// current input position for error messages.
func NewPairer(emit func(Frame) error, where func() string) *Pairer {
	return &Pairer{emit: emit, where: where, maxDepth: DefaultMaxDepth}
}

// SetMaxDepth changes the depth limit (DefaultMaxDepth).
func (p *Pairer) SetMaxDepth(n int) { p.maxDepth = n }

func (p *Pairer) position() string {
	if p.where != nil {
		return p.where()
	}
	return fmt.Sprintf("record %d", p.stats.Records)
}

// Add consumes the next AppMethodBeat record.
func (p *Pairer) Add(r Record) error {
	if r == 0 {
		p.stats.Records++
		p.stats.EmptySlots++
		return nil
	}
	return p.AddCall(r.Enter(), r.MethodID(), r.TimeMs())
}

// AddCall consumes the next enter or exit of method id at time t.
func (p *Pairer) AddCall(enter bool, id int, t uint64) error {
	p.stats.Records++
	if !p.stats.HaveTime {
		p.stats.First, p.stats.Last, p.stats.HaveTime = t, t, true
	} else if t < p.stats.Last {
		if p.stats.TimeBackwards == 0 {
			p.stats.FirstBackward = p.position()
		}
		p.stats.TimeBackwards++
	} else {
		p.stats.Last = t
	}
	if enter {
		p.stats.Enters++
		if len(p.stack) >= p.maxDepth {
			return fmt.Errorf("%s: call depth exceeds %d (enter records without exits?)", p.position(), p.maxDepth)
		}
		p.stack = append(p.stack, openFrame{id: id, seq: p.stats.Enters - 1, start: t, orphansBefore: p.orphans})
		if len(p.stack) > p.stats.MaxDepth {
			p.stats.MaxDepth = len(p.stack)
		}
		return nil
	}
	p.stats.Exits++
	for i := len(p.stack) - 1; i >= 0; i-- {
		if p.stack[i].id != id {
			continue
		}
		for j := len(p.stack) - 1; j > i; j-- {
			if err := p.close(j, t, true); err != nil {
				return err
			}
		}
		err := p.close(i, t, false)
		p.stack = p.stack[:i]
		return err
	}
	if len(p.stack) == 0 {
		f := Frame{Seq: -1 - p.orphans, MethodID: id, Start: p.stats.First, End: t, NoEnter: true}
		p.orphans++
		p.stats.NoEnter++
		return p.send(f)
	}
	if p.stats.StrayExits == 0 {
		p.stats.FirstStray = p.position()
	}
	p.stats.StrayExits++
	return nil
}

func (p *Pairer) close(i int, end uint64, unclosed bool) error {
	o := p.stack[i]
	if unclosed {
		p.stats.Unclosed++
	}
	return p.send(Frame{Seq: o.seq, MethodID: o.id, Start: o.start, End: end, Depth: i,
		OrphansBefore: o.orphansBefore, Unclosed: unclosed})
}

func (p *Pairer) send(f Frame) error {
	p.stats.Frames++
	return p.emit(f)
}

// Finish closes the calls still open at the latest timestamp.
func (p *Pairer) Finish() error { return p.FinishAt(p.stats.Last) }

// FinishAt closes the calls still open at time end (a recording knows
// when it was written, which may be after its last record).
func (p *Pairer) FinishAt(end uint64) error {
	end = max(end, p.stats.Last)
	for j := len(p.stack) - 1; j >= 0; j-- {
		if err := p.close(j, end, true); err != nil {
			return err
		}
	}
	p.stack = p.stack[:0]
	return nil
}

// CloseAbove closes the open calls above the first keep at time end,
// marked Unclosed: their exits went with records that are not there (a
// stream's chunks that its bound dropped, or that were damaged).
func (p *Pairer) CloseAbove(keep int, end uint64) error {
	end = max(end, p.stats.Last)
	for j := len(p.stack) - 1; j >= keep && j >= 0; j-- {
		if err := p.close(j, end, true); err != nil {
			return err
		}
	}
	if keep < len(p.stack) {
		p.stack = p.stack[:max(keep, 0)]
	}
	return nil
}

// Stats returns the counts so far.
func (p *Pairer) Stats() PairStats { return p.stats }

// Open is the number of calls open now; frames emitted during the last
// Add or AddCall had the depths below it and up.
func (p *Pairer) Open() int { return len(p.stack) }

// OpenIDs is the ids of the calls open now, outermost first (while a
// frame is being emitted, its own and those inside it are still there).
func (p *Pairer) OpenIDs() []int {
	ids := make([]int, len(p.stack))
	for i, o := range p.stack {
		ids[i] = o.id
	}
	return ids
}

// Orphans is the number of NoEnter frames so far.
func (p *Pairer) Orphans() int64 { return p.orphans }
