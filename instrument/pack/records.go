package pack

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"slices"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/jario"
)

// A pack is what the cache keeps of one input after a run: an index (this
// file's format), the rewritten class bodies one after another (.dat) and,
// for a jar input written as its own jar, that output jar (.jar).
//
// The index records, for every class entry: the hash of its stored bytes,
// the scan of it, and when it had plans, the hash of those plans and what
// rewriting produced (a body in .dat, or nothing because no method could
// be changed) together with the methods left untouched. A later run reuses
// a record only when the stored bytes and the plans hash the same.
type Index struct {
	OptSum   [32]byte       // the options it was made with (cacheStore.OptSum)
	InputSum [32]byte       // the whole input (jars), zero for directories
	JarSum   jario.Checksum // the output jar kept in the pack, when HasJar
	JarSize  int64
	HasJar   bool
	Classes  map[string]*Class // by entry name
}

// cachedClass is the index record of one class entry.
type Class struct {
	Sum    [32]byte    // entry content hash (see EntrySum)
	Info   *scan.Class // nil: the class could not be parsed, or not decoded yet
	Warn   string      // the parse error, when the class could not be parsed
	Plan   [32]byte    // plans the outcome is for; zero: none recorded
	Result Result
	// Raw is the record as read from an index; a record written again
	// unchanged (a run that shares its predecessor's .dat) is copied from
	// it. infoRaw is its scan, decoded by DecodeInfo when needed.
	Raw, infoRaw []byte
}

// Parsed reports whether the class could be parsed when it was scanned.
func (c *Class) Parsed() bool { return c.Info != nil || c.infoRaw != nil }

// DecodeInfo returns the scan of a record read without it.
func (c *Class) DecodeInfo(texts *scan.TextTable) (*scan.Class, error) {
	if c.Info != nil || c.infoRaw == nil {
		return c.Info, nil
	}
	d := Decoder{Buf: c.infoRaw}
	ci := d.info(texts)
	if d.Err != nil || len(d.Buf) != 0 {
		return nil, ErrBadPack
	}
	return ci, nil
}

// cachedResult is the outcome of rewriting one class with its plans.
type Result struct {
	Rewritten bool // a body was produced (else the class was copied as is)
	Deflated  bool
	CRC       uint32
	Size      int   // uncompressed size
	Off, N    int64 // the body in .dat
	BodySum   jario.Checksum
	Skipped   []Skip
	Warnings  []string
}

type Skip struct {
	Index  int32
	Reason string
}

const Magic = "tracebeat-pack-11\n"

var ErrBadPack = errors.New("cache pack index is damaged")

// WriteIndex serialises ix: magic, header, one length-prefixed record per
// class (self-contained, so a record read from an earlier index can be
// written again as it is), and last the checksum of all before it, so a
// torn or altered index is never trusted. It streams: an index is tens of
// MB for a large jar, and a delta run writes one for each changed jar.
func WriteIndex(f io.Writer, ix *Index, names []string) error {
	h := jario.NewCheckHasher()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	var e Encoder
	e.Buf = append(e.Buf, Magic...)
	e.Buf = append(e.Buf, ix.OptSum[:]...)
	e.Buf = append(e.Buf, ix.InputSum[:]...)
	e.Buf = append(e.Buf, ix.JarSum[:]...)
	e.Uvarint(uint64(ix.JarSize))
	e.Bool(ix.HasJar)
	e.Uvarint(uint64(len(names)))
	w.Write(e.Buf)
	var rec Encoder
	for _, name := range names {
		c := ix.Classes[name]
		raw := c.Raw
		if raw == nil {
			rec.Buf = rec.Buf[:0]
			rec.class(name, c)
			raw = rec.Buf
		}
		e.Buf = binary.AppendUvarint(e.Buf[:0], uint64(len(raw)))
		w.Write(e.Buf)
		w.Write(raw)
	}
	if err := w.Flush(); err != nil { // (the first error of any Write)
		return err
	}
	sum := h.Sum()
	_, err := f.Write(sum[:])
	return err
}

// ReadIndex reads a pack index. With scans set it decodes every record's
// scan; otherwise DecodeInfo does, for the records that need it.
func ReadIndex(path string, scans bool, texts *scan.TextTable) (*Index, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	body, ok := jario.Unseal(data, Magic)
	if !ok {
		return nil, ErrBadPack
	}
	d := Decoder{Buf: body}
	ix := &Index{}
	d.Sum(&ix.OptSum)
	d.Sum(&ix.InputSum)
	d.Sum(&ix.JarSum)
	ix.JarSize = int64(d.Uvarint())
	ix.HasJar = d.Bool()
	n := d.Count()
	ix.Classes = make(map[string]*Class, n)
	for i := 0; i < n && d.Err == nil; i++ {
		raw := d.bytes()
		rd := Decoder{Buf: raw}
		name, c := rd.class(scans, texts)
		if rd.Err != nil || len(rd.Buf) != 0 {
			return nil, ErrBadPack
		}
		c.Raw = raw
		ix.Classes[name] = c
	}
	if d.Err != nil || len(d.Buf) != 0 {
		return nil, ErrBadPack
	}
	return ix, nil
}

func (e *Encoder) class(name string, c *Class) {
	e.Str(name)
	e.Buf = append(e.Buf, c.Sum[:]...)
	e.Bool(c.Parsed())
	switch {
	case c.Info != nil:
		var info Encoder
		info.info(c.Info)
		e.bytes(info.Buf)
	case c.infoRaw != nil:
		e.bytes(c.infoRaw)
	default:
		e.Str(c.Warn)
	}
	e.Buf = append(e.Buf, c.Plan[:]...)
	r := &c.Result
	e.Bool(r.Rewritten)
	e.Bool(r.Deflated)
	e.Uvarint(uint64(r.CRC))
	e.Uvarint(uint64(r.Size))
	e.Uvarint(uint64(r.Off))
	e.Uvarint(uint64(r.N))
	e.Buf = append(e.Buf, r.BodySum[:]...)
	e.Uvarint(uint64(len(r.Skipped)))
	for _, s := range r.Skipped {
		e.Uvarint(uint64(s.Index))
		e.Str(s.Reason)
	}
	e.Uvarint(uint64(len(r.Warnings)))
	for _, w := range r.Warnings {
		e.Str(w)
	}
}

// info encodes a scan; the reasons of its methods are numbered in a table
// of their own, as a class has many methods and few reasons.
func (e *Encoder) info(ci *scan.Class) {
	e.Str(ci.Name)
	e.Str(ci.Super)
	e.Str(ci.OrigName)
	e.Uvarint(uint64(ci.Access))
	e.Bool(ci.Versioned)
	e.Bool(ci.CRCWrong)
	e.Uvarint(uint64(ci.FocusIndex() + 1))
	e.Bool(ci.FocusCode)
	e.Bool(ci.FocusSuper)
	e.Str(ci.BlockedText())
	e.Str(ci.RuleText())
	// The methods' names back to back, each method's by offset and length.
	var text []byte
	for i := range ci.Methods {
		text = append(text, ci.Texts.Str(ci.Methods[i].Name)...)
	}
	e.bytes(text)
	codes := distinct(ci.Methods, func(m *scan.Method) scan.ReasonCode { return m.Reason })
	e.Uvarint(uint64(len(codes)))
	for _, c := range codes {
		e.Str(scan.Reasons.Text(c))
	}
	rules := distinct(ci.Methods, func(m *scan.Method) scan.ReasonCode { return m.Rule })
	e.Uvarint(uint64(len(rules)))
	for _, c := range rules {
		e.Str(scan.Reasons.Text(c))
	}
	// The class's descriptors once each, then each method's by number.
	descs := distinct(ci.Methods, func(m *scan.Method) uint32 { return m.Desc })
	e.Uvarint(uint64(len(descs)))
	for _, d := range descs {
		e.Str(ci.Texts.Str(d))
	}
	e.Uvarint(uint64(len(ci.Methods)))
	at := 0
	for i := range ci.Methods {
		m := &ci.Methods[i]
		n := len(ci.Texts.Str(m.Name))
		e.Uvarint(uint64(at))
		e.Uvarint(uint64(n))
		at += n
		e.Uvarint(uint64(slices.Index(descs, m.Desc)))
		e.Uvarint(uint64(slices.Index(codes, m.Reason)))
		e.Uvarint(uint64(slices.Index(rules, m.Rule)))
		e.Uvarint(uint64(m.Access))
		e.Bool(m.Trace)
	}
}

func (d *Decoder) class(scans bool, texts *scan.TextTable) (string, *Class) {
	name := d.Str()
	c := &Class{}
	d.Sum(&c.Sum)
	if d.Bool() {
		c.infoRaw = d.bytes()
		if scans {
			var err error
			if c.Info, err = c.DecodeInfo(texts); err != nil {
				d.fail()
			}
		}
	} else {
		c.Warn = d.Str()
	}
	d.Sum(&c.Plan)
	r := &c.Result
	r.Rewritten = d.Bool()
	r.Deflated = d.Bool()
	r.CRC = uint32(d.Uvarint())
	r.Size = int(d.Uvarint())
	r.Off = int64(d.Uvarint())
	r.N = int64(d.Uvarint())
	d.Sum(&r.BodySum)
	if n := d.Count(); n > 0 {
		r.Skipped = make([]Skip, n)
		for i := range r.Skipped {
			r.Skipped[i] = Skip{Index: int32(d.Uvarint()), Reason: d.Str()}
		}
	}
	if n := d.Count(); n > 0 {
		r.Warnings = make([]string, n)
		for i := range r.Warnings {
			r.Warnings[i] = d.Str()
		}
	}
	return name, c
}

func (d *Decoder) info(texts *scan.TextTable) *scan.Class {
	ci := &scan.Class{Texts: texts}
	ci.Name = d.Str()
	ci.Super = d.Str()
	ci.OrigName = d.Str()
	ci.Access = uint16(d.Uvarint())
	ci.Versioned = d.Bool()
	ci.CRCWrong = d.Bool()
	if f := d.Uvarint(); f == 0 {
		ci.FocusAt = scan.NoFocus
	} else if f < scan.NoFocus+1 {
		ci.FocusAt = uint16(f - 1)
	} else {
		d.fail()
	}
	ci.FocusCode = d.Bool()
	ci.FocusSuper = d.Bool()
	ci.Blocked = scan.Reasons.Code(d.Str())
	ci.Rule = scan.Reasons.Code(d.Str())
	text := d.bytes()
	codes := make([]scan.ReasonCode, d.Count())
	for i := range codes {
		codes[i] = scan.Reasons.Code(d.Str())
	}
	rules := make([]scan.ReasonCode, d.Count())
	for i := range rules {
		rules[i] = scan.Reasons.Code(d.Str())
	}
	local := make([]uint32, d.Count())
	for i := range local {
		var ok bool
		if local[i], ok = texts.InternBytes(d.bytes()); !ok {
			d.fail()
		}
	}
	n := d.Count()
	ci.Methods = make([]scan.Method, n)
	for i := range ci.Methods {
		m := &ci.Methods[i]
		nameAt, nameLen, desc := d.Uvarint(), d.Uvarint(), d.Uvarint()
		if nameLen > math.MaxUint16 || nameAt+nameLen > uint64(len(text)) || desc >= uint64(len(local)) {
			d.fail()
			return nil
		}
		name, ok := texts.InternBytes(text[nameAt : nameAt+nameLen])
		if !ok {
			d.fail()
			return nil
		}
		m.Name, m.Desc = name, local[desc]
		if r := d.Uvarint(); r < uint64(len(codes)) {
			m.Reason = codes[r]
		} else {
			d.fail()
		}
		if r := d.Uvarint(); r < uint64(len(rules)) {
			m.Rule = rules[r]
		} else {
			d.fail()
		}
		m.Access = uint16(d.Uvarint())
		m.Trace = d.Bool()
	}
	if d.Err != nil {
		return nil
	}
	return ci
}

// distinct lists what key gives for the methods, each value once, in the
// order first seen (a class has many methods and few such values).
func distinct[T comparable](ms []scan.Method, key func(*scan.Method) T) []T {
	var out []T
	for i := range ms {
		if v := key(&ms[i]); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
