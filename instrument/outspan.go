// A merged jar is written input by input, so each input's entries lie in
// one span of it. A delta run copies the span of an unchanged input from
// the last output, checked against the sums the last run kept, instead
// of writing its thousands of entries again: an Android app's classes
// and libraries go into one jar, and a one-class edit rewrote all of it.

package instrument

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
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
}

// outSpan encodes s for a run snapshot.
func (e *indexEncoder) outSpan(s outSpan) {
	for _, n := range []int64{s.start, s.end, int64(s.first), int64(s.count)} {
		e.uvarint(uint64(n))
	}
	e.buf = append(e.buf, s.localSum[:]...)
	e.buf = append(e.buf, s.recordSum[:]...)
}

func (d *indexDecoder) outSpan() outSpan {
	s := outSpan{start: int64(d.uvarint()), end: int64(d.uvarint()), first: int(d.uvarint()), count: int(d.uvarint())}
	d.sum(&s.localSum)
	d.sum(&s.recordSum)
	return s
}

// beginSpan starts the span of the next input's entries.
func (w *jarWriter) beginSpan() {
	h := newCheckHasher()
	w.section = &h
	w.spanStart, w.spanFirst, w.spanDir = w.off, w.records, len(w.dir)
}

// endSpan ends the span begun last; a zero span when its records are not
// of the plain form a splice can move.
func (w *jarWriter) endSpan() outSpan {
	h := w.section
	w.section = nil
	sum, ok := recordSum(w.dir[w.spanDir:])
	if h == nil || !ok || w.records == w.spanFirst {
		return outSpan{}
	}
	return outSpan{start: w.spanStart, end: w.off, first: w.spanFirst, count: w.records - w.spanFirst,
		localSum: h.sum(), recordSum: sum}
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

var errZip64Record = errors.New("a zip64 directory record")

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

// closeLastOutput closes the last output once nothing more is copied
// from it.
func (d *delta) closeLastOutput() {
	if d != nil && d.lastOut != nil {
		d.lastOut.close()
		d.lastOut = nil
	}
}

// spliceInput copies unchanged input i's span from the last output into
// js, the merged jar, when a delta run found it intact and a full run
// would write the same entries: those of the span's records, in order,
// the others skipped as written by an earlier input. False when the
// input is to be written entry by entry.
func (d *delta) spliceInput(js *jarSink, i int, tick func()) (moved outSpan, ok bool, err error) {
	if d == nil || d.splices == nil || d.splices[i] == nil {
		return outSpan{}, false, nil
	}
	in, last := d.p.inputs[i], &d.snap.inputs[i]
	if js.zw.off+(last.out.end-last.out.start) >= uint32max {
		return outSpan{}, false, nil // its records would move to the zip64 form
	}
	for _, w := range last.outWarnings {
		if !strings.HasSuffix(w, mergeSkipSuffix) {
			return outSpan{}, false, nil // said again only by writing the entries
		}
	}
	var names []string // of the records, in order
	if eachRecord(d.splices[i], func(rec []byte) error {
		names = append(names, string(rec[dirRecordLen:dirRecordLen+int(binary.LittleEndian.Uint16(rec[28:]))]))
		return nil
	}) != nil {
		return outSpan{}, false, nil
	}
	var skipped []string
	k, same := 0, true
	for j := 0; j < len(in.entries) && same; j++ {
		switch name := in.entries[j].name; {
		case k < len(names) && names[k] == name && !js.names[name]:
			js.names[name] = true
			k++
		case js.names[name]:
			if !isDirName(name) { // as emit says it
				skipped = append(skipped, name)
			}
		default:
			same = false
		}
	}
	if !same || k != len(names) {
		for _, name := range names[:k] { // taken back: the input is written entry by entry
			delete(js.names, name)
		}
		return outSpan{}, false, nil
	}
	if moved, err = js.zw.spliceSpan(d.lastOut.file, last.out, d.splices[i]); err != nil {
		return outSpan{}, false, fmt.Errorf("%s: %w", in.path, err)
	}
	for _, name := range skipped {
		d.p.warns.atOutput(i, "%s: %s%s", in.path, name, mergeSkipSuffix)
	}
	for j := range in.entries {
		if in.entries[j].isClass() {
			tick()
		}
	}
	return moved, true, nil
}
