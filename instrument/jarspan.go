package instrument

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
)

// outSpan is where an input's entries lie in a merged jar: its local
// bytes [start, end) and its directory records [first, first+count),
// with what a later run checks before copying them from there. A zero
// count is no span: the input is written entry by entry.
type outSpan struct {
	start, end   int64
	first, count int
	localSum     checksum // of the local bytes
	recordSum    checksum // of the records, each with its offset taken as zero
	// skipped are the names of the input's entries not written, in order:
	// an earlier input wrote one of the name (or a rewrite dropped a
	// signature). classes counts the input's class entries.
	skipped []string
	classes int
}

// beginSpan starts the span of the next input's entries.
func (w *jarWriter) beginSpan() {
	h := newCheckHasher()
	w.section = &h
	w.spanStart, w.spanFirst, w.spanDir = w.off, w.records, len(w.dir)
}

// endSpan ends the span begun last, which holds what was written of
// entries; a zero span when its records are not of the plain form a
// splice can move.
func (w *jarWriter) endSpan(entries []entry) outSpan {
	h := w.section
	w.section = nil
	records := w.dir[w.spanDir:]
	sum, ok := recordSum(records)
	if h == nil || !ok || w.records == w.spanFirst {
		return outSpan{}
	}
	span := outSpan{start: w.spanStart, end: w.off, first: w.spanFirst, count: w.records - w.spanFirst,
		localSum: h.sum(), recordSum: sum}
	// The records name the entries written, in order; the others were
	// skipped.
	names := recordNames(records)
	k := 0
	for j := range entries {
		e := &entries[j]
		if e.isClass() {
			span.classes++
		}
		if k < len(names) && names[k] == e.name {
			k++
		} else {
			span.skipped = append(span.skipped, e.name)
		}
	}
	if k != len(names) {
		return outSpan{} // not these entries' records
	}
	return span
}

// recordNames lists the entry names of directory records.
func recordNames(records []byte) []string {
	var names []string
	_ = eachRecord(records, func(rec []byte) error {
		names = append(names, string(rec[dirRecordLen:dirRecordLen+int(binary.LittleEndian.Uint16(rec[28:]))]))
		return nil
	})
	return names
}

// fits reports whether a full run would write span's entries now, names
// being what the inputs before it wrote: none of its records' names
// taken, and each name it skipped taken (or its own, earlier).
func (span *outSpan) fits(records []string, names map[string]bool) bool {
	for _, name := range records {
		if names[name] {
			return false
		}
	}
	for _, name := range span.skipped {
		if !names[name] && !slices.Contains(records, name) {
			return false
		}
	}
	return true
}

// spliceSpan copies span of src, the last output, whose records are
// records, and returns where it now lies.
func (w *jarWriter) spliceSpan(src *os.File, span outSpan, records []byte) (outSpan, error) {
	moved := span
	moved.start, moved.first = w.off, w.records
	if err := w.splice(src, span.start, span.end, records); err != nil {
		return outSpan{}, err
	}
	moved.end = w.off
	return moved, nil
}

// recordSum is the checksum of directory records with their offsets
// taken as zero, the same wherever their entries lie; ok is false when
// a record is of the zip64 form (its offset or sizes in an extra field).
func recordSum(dir []byte) (sum checksum, ok bool) {
	h := newCheckHasher()
	var zero [4]byte
	err := eachRecord(dir, func(rec []byte) error {
		le := binary.LittleEndian
		if le.Uint32(rec[20:]) == uint32max || le.Uint32(rec[24:]) == uint32max || le.Uint32(rec[dirRecordOffset:]) == uint32max {
			return errZip64Record
		}
		h.Write(rec[:dirRecordOffset])
		h.Write(zero[:])
		h.Write(rec[dirRecordOffset+4:])
		return nil
	})
	if err != nil {
		return checksum{}, false
	}
	return h.sum(), true
}

// lastOutput is the merged jar the last run wrote, opened for the spans
// a delta run copies from it.
type lastOutput struct {
	file   *os.File
	dir    []byte // its central directory
	recPos []int  // where each record begins in dir, and dir's length last
}

// openLastOutput reads the central directory of the merged jar at path;
// nil when there is none, or it is not of the plain form this writer
// gives a merged jar under 4 GB with fewer than 65,535 entries (no zip64
// end record, no comment).
func openLastOutput(path string) *lastOutput {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	last := &lastOutput{file: f}
	if !last.readDirectory() {
		f.Close()
		return nil
	}
	return last
}

func (o *lastOutput) readDirectory() bool {
	st, err := o.file.Stat()
	if err != nil || st.Size() < dirEndLen {
		return false
	}
	var end [dirEndLen]byte
	if _, err := o.file.ReadAt(end[:], st.Size()-dirEndLen); err != nil {
		return false
	}
	le := binary.LittleEndian
	records, size, offset := int(le.Uint16(end[10:])), int64(le.Uint32(end[12:])), int64(le.Uint32(end[16:]))
	if le.Uint32(end[:]) != sigDirEnd || le.Uint16(end[20:]) != 0 || records == uint16max ||
		offset+size != st.Size()-dirEndLen {
		return false
	}
	o.dir = make([]byte, size)
	if _, err := o.file.ReadAt(o.dir, offset); err != nil {
		return false
	}
	o.recPos = make([]int, 0, records+1)
	pos := 0
	err = eachRecord(o.dir, func(rec []byte) error {
		o.recPos = append(o.recPos, pos)
		pos += len(rec)
		return nil
	})
	o.recPos = append(o.recPos, pos)
	return err == nil && len(o.recPos) == records+1
}

// intact reports whether the last output holds span's local bytes as
// the last run wrote them (its sum).
func (o *lastOutput) intact(span outSpan) bool {
	h := newCheckHasher()
	_, err := io.Copy(h, io.NewSectionReader(o.file, span.start, span.end-span.start))
	return err == nil && h.sum() == span.localSum
}

// records returns the directory records of span, nil unless they are
// the ones the last run wrote (their sum) at offsets within the span.
func (o *lastOutput) records(span outSpan) []byte {
	if span.count == 0 || span.first+span.count >= len(o.recPos) {
		return nil
	}
	records := o.dir[o.recPos[span.first]:o.recPos[span.first+span.count]]
	first := true
	err := eachRecord(records, func(rec []byte) error {
		off := int64(binary.LittleEndian.Uint32(rec[dirRecordOffset:]))
		if off < span.start || off >= span.end || (first && off != span.start) {
			return errors.New("not the span kept")
		}
		first = false
		return nil
	})
	if err != nil {
		return nil
	}
	if sum, ok := recordSum(records); !ok || sum != span.recordSum {
		return nil
	}
	return records
}

func (o *lastOutput) close() {
	if o != nil {
		o.file.Close()
	}
}

var errZip64Record = errors.New("a zip64 directory record")
