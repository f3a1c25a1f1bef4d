package jario

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
type Span struct {
	Start, End   int64
	First, Count int
	LocalSum     Checksum // of the local bytes
	RecordSum    Checksum // of the records, each with its offset taken as zero
	// Skipped are the names of the input's entries not written, in order:
	// an earlier input wrote one of the name (or a rewrite dropped a
	// signature). classes counts the input's class entries.
	Skipped []string
	Classes int
}

// BeginSpan starts the span of the next input's entries.
func (w *jarWriter) BeginSpan() {
	h := NewCheckHasher()
	w.section = &h
	w.spanStart, w.spanFirst, w.spanDir = w.Off, w.records, len(w.dir)
}

// EndSpan ends the span begun last, which holds what was written of
// entries; a zero span when its records are not of the plain form a
// splice can move.
func (w *jarWriter) EndSpan(entries []Entry) Span {
	h := w.section
	w.section = nil
	records := w.dir[w.spanDir:]
	sum, ok := recordSum(records)
	if h == nil || !ok || w.records == w.spanFirst {
		return Span{}
	}
	span := Span{Start: w.spanStart, End: w.Off, First: w.spanFirst, Count: w.records - w.spanFirst,
		LocalSum: h.Sum(), RecordSum: sum}
	// The records name the entries written, in order; the others were
	// skipped.
	names := RecordNames(records)
	k := 0
	for j := range entries {
		e := &entries[j]
		if e.IsClass() {
			span.Classes++
		}
		if k < len(names) && names[k] == e.Name {
			k++
		} else {
			span.Skipped = append(span.Skipped, e.Name)
		}
	}
	if k != len(names) {
		return Span{} // not these entries' records
	}
	return span
}

// RecordNames lists the entry names of directory records.
func RecordNames(records []byte) []string {
	var names []string
	_ = eachRecord(records, func(rec []byte) error {
		names = append(names, string(rec[dirRecordLen:dirRecordLen+int(binary.LittleEndian.Uint16(rec[28:]))]))
		return nil
	})
	return names
}

// Fits reports whether a full run would write span's entries now, names
// being what the inputs before it wrote: none of its records' names
// taken, and each name it skipped taken (or its own, earlier).
func (span *Span) Fits(records []string, names map[string]bool) bool {
	for _, name := range records {
		if names[name] {
			return false
		}
	}
	for _, name := range span.Skipped {
		if !names[name] && !slices.Contains(records, name) {
			return false
		}
	}
	return true
}

// SpliceSpan copies span of src, the last output, whose records are
// records, and returns where it now lies.
func (w *jarWriter) SpliceSpan(src *os.File, span Span, records []byte) (Span, error) {
	moved := span
	moved.Start, moved.First = w.Off, w.records
	if err := w.splice(src, span.Start, span.End, records); err != nil {
		return Span{}, err
	}
	moved.End = w.Off
	return moved, nil
}

// RecordSum is the checksum of directory records with their offsets
// taken as zero, the same wherever their entries lie; ok is false when
// a record is of the zip64 form (its offset or sizes in an extra field).
func recordSum(dir []byte) (sum Checksum, ok bool) {
	h := NewCheckHasher()
	var zero [4]byte
	err := eachRecord(dir, func(rec []byte) error {
		le := binary.LittleEndian
		if le.Uint32(rec[20:]) == MaxUint32 || le.Uint32(rec[24:]) == MaxUint32 || le.Uint32(rec[dirRecordOffset:]) == MaxUint32 {
			return errZip64Record
		}
		h.Write(rec[:dirRecordOffset])
		h.Write(zero[:])
		h.Write(rec[dirRecordOffset+4:])
		return nil
	})
	if err != nil {
		return Checksum{}, false
	}
	return h.Sum(), true
}

// lastOutput is the merged jar the last run wrote, opened for the spans
// a delta run copies from it.
type LastJar struct {
	File   *os.File
	dir    []byte // its central directory
	recPos []int  // Where each record begins in dir, and dir's length last
}

// openLastOutput reads the central directory of the merged jar at path;
// nil when there is none, or it is not of the plain form this writer
// gives a merged jar under 4 GB with fewer than 65,535 entries (no zip64
// end record, no comment).
func OpenLastJar(path string) *LastJar {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	last := &LastJar{File: f}
	if !last.readDirectory() {
		f.Close()
		return nil
	}
	return last
}

func (o *LastJar) readDirectory() bool {
	st, err := o.File.Stat()
	if err != nil || st.Size() < dirEndLen {
		return false
	}
	var end [dirEndLen]byte
	if _, err := o.File.ReadAt(end[:], st.Size()-dirEndLen); err != nil {
		return false
	}
	le := binary.LittleEndian
	records, size, offset := int(le.Uint16(end[10:])), int64(le.Uint32(end[12:])), int64(le.Uint32(end[16:]))
	if le.Uint32(end[:]) != sigDirEnd || le.Uint16(end[20:]) != 0 || records == uint16max ||
		offset+size != st.Size()-dirEndLen {
		return false
	}
	o.dir = make([]byte, size)
	if _, err := o.File.ReadAt(o.dir, offset); err != nil {
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

// Intact reports whether the last output holds span's local bytes as
// the last run wrote them (its sum).
func (o *LastJar) Intact(span Span) bool {
	h := NewCheckHasher()
	_, err := io.Copy(h, io.NewSectionReader(o.File, span.Start, span.End-span.Start))
	return err == nil && h.Sum() == span.LocalSum
}

// Records returns the directory records of span, nil unless they are
// the ones the last run wrote (their sum) at offsets within the span.
func (o *LastJar) Records(span Span) []byte {
	if span.Count == 0 || span.First+span.Count >= len(o.recPos) {
		return nil
	}
	records := o.dir[o.recPos[span.First]:o.recPos[span.First+span.Count]]
	first := true
	err := eachRecord(records, func(rec []byte) error {
		off := int64(binary.LittleEndian.Uint32(rec[dirRecordOffset:]))
		if off < span.Start || off >= span.End || (first && off != span.Start) {
			return errors.New("not the span kept")
		}
		first = false
		return nil
	})
	if err != nil {
		return nil
	}
	if sum, ok := recordSum(records); !ok || sum != span.RecordSum {
		return nil
	}
	return records
}

func (o *LastJar) Close() {
	if o != nil {
		o.File.Close()
	}
}

var errZip64Record = errors.New("a zip64 directory record")
