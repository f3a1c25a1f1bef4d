// The cache's binary encoding: uvarints, length-prefixed bytes and
// strings, sums, and a decoder that remembers its first error, which the
// pack index (cache_index.go) and the run snapshot (snapshot.go) are
// written in; and the atomic writes of its files.

package pack

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

type Encoder struct{ Buf []byte }

func (e *Encoder) Uvarint(v uint64) { e.Buf = binary.AppendUvarint(e.Buf, v) }

func (e *Encoder) bytes(b []byte) {
	e.Uvarint(uint64(len(b)))
	e.Buf = append(e.Buf, b...)
}

func (e *Encoder) Str(s string) {
	e.Uvarint(uint64(len(s)))
	e.Buf = append(e.Buf, s...)
}

func (e *Encoder) Bool(b bool) {
	if b {
		e.Buf = append(e.Buf, 1)
	} else {
		e.Buf = append(e.Buf, 0)
	}
}

// indexDecoder reads what indexEncoder wrote; the first problem sticks in
// err and every later read returns zero values.
type Decoder struct {
	Buf []byte
	Err error
	// Shared makes the strings it reads share buf's bytes instead of
	// copying them: for a buffer nothing changes afterwards, read whole
	// for the decoder (a snapshot's 11,000 ignored methods were 35,000
	// copies, a third of its decoding).
	Shared bool
}

func (d *Decoder) fail() {
	if d.Err == nil {
		d.Err = ErrBadPack
	}
	d.Buf = nil
}

func (d *Decoder) Uvarint() uint64 {
	v, n := binary.Uvarint(d.Buf)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.Buf = d.Buf[n:]
	return v
}

// Count reads a length that must fit in what is left of the index.
func (d *Decoder) Count() int {
	v := d.Uvarint()
	if v > uint64(len(d.Buf)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *Decoder) bytes() []byte {
	n := d.Count()
	b := d.Buf[:n:n]
	d.Buf = d.Buf[n:]
	return b
}

func (d *Decoder) Str() string {
	b := d.bytes()
	if d.Shared && len(b) > 0 {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

func (d *Decoder) Bool() bool {
	if len(d.Buf) == 0 {
		d.fail()
		return false
	}
	b := d.Buf[0]
	d.Buf = d.Buf[1:]
	if b > 1 {
		d.fail()
	}
	return b == 1
}

func (d *Decoder) Sum(dst *[32]byte) {
	if len(d.Buf) < 32 {
		d.fail()
		return
	}
	copy(dst[:], d.Buf)
	d.Buf = d.Buf[32:]
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

// OutSpan encodes s for a run snapshot.
func (e *Encoder) OutSpan(s jario.Span) {
	for _, n := range []int64{s.Start, s.End, int64(s.First), int64(s.Count), int64(s.Classes)} {
		e.Uvarint(uint64(n))
	}
	e.Buf = append(e.Buf, s.LocalSum[:]...)
	e.Buf = append(e.Buf, s.RecordSum[:]...)
	e.Strs(s.Skipped)
}

func (d *Decoder) OutSpan() jario.Span {
	s := jario.Span{Start: int64(d.Uvarint()), End: int64(d.Uvarint()), First: int(d.Uvarint()), Count: int(d.Uvarint()),
		Classes: int(d.Uvarint())}
	d.Sum(&s.LocalSum)
	d.Sum(&s.RecordSum)
	s.Skipped = d.Strs()
	return s
}

// IgnoredList writes a list of ignored methods sorted by key: each class
// once, then its methods.
func (e *Encoder) IgnoredList(list []methodmap.IgnoredMethod) {
	e.Uvarint(uint64(len(list)))
	for k, m := range list {
		newClass := k == 0 || list[k-1].Key.Class != m.Key.Class
		e.Bool(newClass)
		if newClass {
			e.Str(m.Key.Class)
		}
		e.Str(m.Key.Name)
		e.Str(m.Key.Desc)
		e.Uvarint(uint64(m.Access))
		e.Str(string(m.Reason))
	}
}

func (d *Decoder) IgnoredList() []methodmap.IgnoredMethod {
	n := d.Count()
	if n == 0 {
		return nil
	}
	list := make([]methodmap.IgnoredMethod, n)
	class := ""
	for k := range list {
		if d.Bool() {
			class = d.Str()
		}
		m := &list[k]
		m.Key = methodmap.MethodKey{Class: class, Name: d.Str(), Desc: d.Str()}
		m.Access = uint16(d.Uvarint())
		m.Reason = methodmap.Reason(d.Str())
	}
	return list
}

func (e *Encoder) Strs(list []string) {
	e.Uvarint(uint64(len(list)))
	for _, s := range list {
		e.Str(s)
	}
}

func (d *Decoder) Strs() []string {
	n := d.Count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.Str()
	}
	return out
}

// Counts writes a map of counts in key order.
func (e *Encoder) Counts(m map[string]int) {
	keys := slices.Sorted(maps.Keys(m))
	e.Uvarint(uint64(len(keys)))
	for _, k := range keys {
		e.Str(k)
		e.Uvarint(uint64(m[k]))
	}
}

func (d *Decoder) Counts() map[string]int {
	n := d.Count()
	m := make(map[string]int, n)
	for i := 0; i < n; i++ {
		k := d.Str()
		m[k] = int(d.Uvarint())
	}
	return m
}
