// The cache's binary encoding: uvarints, length-prefixed bytes and
// strings, sums, and a decoder that remembers its first error, which the
// pack index (cache_index.go) and the run snapshot (snapshot.go) are
// written in; and the atomic writes of its files.

package instrument

import (
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"slices"
	"unsafe"

	"github.com/tracebeat/tracebeat/instrument/jario"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/methodmap"
)

type indexEncoder struct{ buf []byte }

func (e *indexEncoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

func (e *indexEncoder) bytes(b []byte) {
	e.uvarint(uint64(len(b)))
	e.buf = append(e.buf, b...)
}

func (e *indexEncoder) str(s string) {
	e.uvarint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *indexEncoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// indexDecoder reads what indexEncoder wrote; the first problem sticks in
// err and every later read returns zero values.
type indexDecoder struct {
	buf []byte
	err error
	// shared makes the strings it reads share buf's bytes instead of
	// copying them: for a buffer nothing changes afterwards, read whole
	// for the decoder (a snapshot's 11,000 ignored methods were 35,000
	// copies, a third of its decoding).
	shared bool
}

func (d *indexDecoder) fail() {
	if d.err == nil {
		d.err = errBadPack
	}
	d.buf = nil
}

func (d *indexDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

// count reads a length that must fit in what is left of the index.
func (d *indexDecoder) count() int {
	v := d.uvarint()
	if v > uint64(len(d.buf)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *indexDecoder) bytes() []byte {
	n := d.count()
	b := d.buf[:n:n]
	d.buf = d.buf[n:]
	return b
}

func (d *indexDecoder) str() string {
	b := d.bytes()
	if d.shared && len(b) > 0 {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

func (d *indexDecoder) bool() bool {
	if len(d.buf) == 0 {
		d.fail()
		return false
	}
	b := d.buf[0]
	d.buf = d.buf[1:]
	if b > 1 {
		d.fail()
	}
	return b == 1
}

func (d *indexDecoder) sum(dst *[32]byte) {
	if len(d.buf) < 32 {
		d.fail()
		return
	}
	copy(dst[:], d.buf)
	d.buf = d.buf[32:]
}

// writeFileAtomic writes a cache file through a temporary file and a
// rename, so a reader finds the old or the new content.
func writeFileAtomic(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomic is writeFileAtomic for content streamed by write.
func writeAtomic(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, 0o644, write); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// outSpan encodes s for a run snapshot.
func (e *indexEncoder) outSpan(s jario.Span) {
	for _, n := range []int64{s.Start, s.End, int64(s.First), int64(s.Count), int64(s.Classes)} {
		e.uvarint(uint64(n))
	}
	e.buf = append(e.buf, s.LocalSum[:]...)
	e.buf = append(e.buf, s.RecordSum[:]...)
	e.strs(s.Skipped)
}

func (d *indexDecoder) outSpan() jario.Span {
	s := jario.Span{Start: int64(d.uvarint()), End: int64(d.uvarint()), First: int(d.uvarint()), Count: int(d.uvarint()),
		Classes: int(d.uvarint())}
	d.sum(&s.LocalSum)
	d.sum(&s.RecordSum)
	s.Skipped = d.strs()
	return s
}

// IgnoredList writes a list of ignored methods sorted by key: each class
// once, then its methods.
func (e *indexEncoder) ignoredList(list []methodmap.IgnoredMethod) {
	e.uvarint(uint64(len(list)))
	for k, m := range list {
		newClass := k == 0 || list[k-1].Key.Class != m.Key.Class
		e.bool(newClass)
		if newClass {
			e.str(m.Key.Class)
		}
		e.str(m.Key.Name)
		e.str(m.Key.Desc)
		e.uvarint(uint64(m.Access))
		e.str(string(m.Reason))
	}
}

func (d *indexDecoder) ignoredList() []methodmap.IgnoredMethod {
	n := d.count()
	if n == 0 {
		return nil
	}
	list := make([]methodmap.IgnoredMethod, n)
	class := ""
	for k := range list {
		if d.bool() {
			class = d.str()
		}
		m := &list[k]
		m.Key = methodmap.MethodKey{Class: class, Name: d.str(), Desc: d.str()}
		m.Access = uint16(d.uvarint())
		m.Reason = methodmap.Reason(d.str())
	}
	return list
}

func (e *indexEncoder) strs(list []string) {
	e.uvarint(uint64(len(list)))
	for _, s := range list {
		e.str(s)
	}
}

func (d *indexDecoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// counts writes a map of counts in key order.
func (e *indexEncoder) counts(m map[string]int) {
	keys := slices.Sorted(maps.Keys(m))
	e.uvarint(uint64(len(keys)))
	for _, k := range keys {
		e.str(k)
		e.uvarint(uint64(m[k]))
	}
}

func (d *indexDecoder) counts() map[string]int {
	n := d.count()
	m := make(map[string]int, n)
	for i := 0; i < n; i++ {
		k := d.str()
		m[k] = int(d.uvarint())
	}
	return m
}
