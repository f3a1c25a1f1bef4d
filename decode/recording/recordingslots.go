package recording

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Version 2 stores a thread's records as 4-byte slots: a record's word, or
// half of a time mark (RECORDING.md). A mark's halves have their top three
// bits set, which no word has; the records after a mark happened at its
// time. From version 3 on, a low half alone is a mark whose high bits are
// the last mark's.
const (
	markBits  = 0xE0000000
	MarkHigh  = 0xF0000000 // bits 28 and up of the time
	MarkLow   = 0xE0000000 // bits 0 to 27
	markPart  = 0x10000000
	MarkValue = 0x0FFFFFFF
)

// slotChunk is how many slots slots() takes from the reader at a time.
const slotChunk = 4096

// slots reads the current thread's slots (version 2) and calls fn for each
// record with the time of the mark before it.
func (rec *Recording) slots(fn func(enter bool, id int, t uint64) error) error {
	t := rec.pending
	highSet := false
	for rec.left > 0 {
		n := min(int(rec.left), slotChunk)
		b, err := rec.r.Peek(n * 4)
		if len(b) < 4 {
			if errors.Is(truncated(err), errCut) {
				rec.cut(t.Index, fmt.Sprintf("in thread %d (%s), after %d of its %d records", t.Index+1, t.Label(), rec.seen, t.Records))
				return nil
			}
			return fmt.Errorf("%s: thread %d (%s): record %d of %d: %w", rec.src, t.Index+1, t.Label(),
				rec.seen+1, t.Records, truncated(err))
		}
		n = len(b) / 4
		for i := 0; i < n; i++ {
			slot := binary.BigEndian.Uint32(b[i*4:])
			switch {
			case slot&(markBits|markPart) == MarkHigh:
				rec.high, highSet = uint64(slot&MarkValue)<<28, true
			case slot&markBits == MarkLow:
				if !highSet && (rec.Version < 3 || !rec.timed) {
					return rec.slotError(rec.off+int64(i*4), "the second half of a time mark without the first")
				}
				rec.time, rec.timed, highSet = rec.high|uint64(slot&MarkValue), true, false
			default:
				if !rec.timed || highSet {
					return rec.slotError(rec.off+int64(i*4), "a record before any time mark")
				}
				if rec.seen == t.Records {
					return rec.slotError(rec.off+int64(i*4), fmt.Sprintf("more records than the %d the thread's header says", t.Records))
				}
				rec.seen++
				id := int(slot & recordingIDMask)
				if slot&recordingSection != 0 {
					id = SectionID(id)
				}
				if err := fn(slot&ExitFlag == 0, id, rec.time); err != nil {
					rec.consumed(i + 1)
					return err
				}
			}
		}
		rec.consumed(n)
	}
	if rec.seen != t.Records {
		return rec.slotError(rec.off, fmt.Sprintf("%d records where the thread's header says %d", rec.seen, t.Records))
	}
	return nil
}

// consumed drops n slots from the reader.
func (rec *Recording) consumed(n int) {
	rec.r.Discard(n * 4)
	rec.off += int64(n * 4)
	rec.left -= uint32(n)
}

func (rec *Recording) slotError(off int64, what string) error {
	t := rec.pending
	return fmt.Errorf("%s: thread %d (%s): byte %d: %s: damaged file?", rec.src, t.Index+1, t.Label(), off, what)
}
