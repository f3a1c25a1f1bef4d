package instrument

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
type packIndex struct {
	optSum   [32]byte       // the options it was made with (cacheStore.optSum)
	inputSum [32]byte       // the whole input (jars), zero for directories
	jarSum   jario.Checksum // the output jar kept in the pack, when hasJar
	jarSize  int64
	hasJar   bool
	classes  map[string]*cachedClass // by entry name
}

// cachedClass is the index record of one class entry.
type cachedClass struct {
	sum    [32]byte    // entry content hash (see EntrySum)
	info   *scan.Class // nil: the class could not be parsed, or not decoded yet
	warn   string      // the parse error, when the class could not be parsed
	plan   [32]byte    // plans the outcome is for; zero: none recorded
	result cachedResult
	// raw is the record as read from an index; a record written again
	// unchanged (a run that shares its predecessor's .dat) is copied from
	// it. infoRaw is its scan, decoded by decodeInfo when needed.
	raw, infoRaw []byte
}

// parsed reports whether the class could be parsed when it was scanned.
func (c *cachedClass) parsed() bool { return c.info != nil || c.infoRaw != nil }

// decodeInfo returns the scan of a record read without it.
func (c *cachedClass) decodeInfo(texts *scan.TextTable) (*scan.Class, error) {
	if c.info != nil || c.infoRaw == nil {
		return c.info, nil
	}
	d := indexDecoder{buf: c.infoRaw}
	ci := d.info(texts)
	if d.err != nil || len(d.buf) != 0 {
		return nil, errBadPack
	}
	return ci, nil
}

// cachedResult is the outcome of rewriting one class with its plans.
type cachedResult struct {
	rewritten bool // a body was produced (else the class was copied as is)
	deflated  bool
	crc       uint32
	size      int   // uncompressed size
	off, n    int64 // the body in .dat
	bodySum   jario.Checksum
	skipped   []cachedSkip
	warnings  []string
}

type cachedSkip struct {
	index  int32
	reason string
}

const packMagic = "tracebeat-pack-11\n"

var errBadPack = errors.New("cache pack index is damaged")

// writeIndex serialises ix: magic, header, one length-prefixed record per
// class (self-contained, so a record read from an earlier index can be
// written again as it is), and last the checksum of all before it, so a
// torn or altered index is never trusted. It streams: an index is tens of
// MB for a large jar, and a delta run writes one for each changed jar.
func writeIndex(f io.Writer, ix *packIndex, names []string) error {
	h := jario.NewCheckHasher()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	var e indexEncoder
	e.buf = append(e.buf, packMagic...)
	e.buf = append(e.buf, ix.optSum[:]...)
	e.buf = append(e.buf, ix.inputSum[:]...)
	e.buf = append(e.buf, ix.jarSum[:]...)
	e.uvarint(uint64(ix.jarSize))
	e.bool(ix.hasJar)
	e.uvarint(uint64(len(names)))
	w.Write(e.buf)
	var rec indexEncoder
	for _, name := range names {
		c := ix.classes[name]
		raw := c.raw
		if raw == nil {
			rec.buf = rec.buf[:0]
			rec.class(name, c)
			raw = rec.buf
		}
		e.buf = binary.AppendUvarint(e.buf[:0], uint64(len(raw)))
		w.Write(e.buf)
		w.Write(raw)
	}
	if err := w.Flush(); err != nil { // (the first error of any Write)
		return err
	}
	sum := h.Sum()
	_, err := f.Write(sum[:])
	return err
}

// readIndex reads a pack index. With scans set it decodes every record's
// scan; otherwise decodeInfo does, for the records that need it.
func readIndex(path string, scans bool, texts *scan.TextTable) (*packIndex, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	body, ok := jario.Unseal(data, packMagic)
	if !ok {
		return nil, errBadPack
	}
	d := indexDecoder{buf: body}
	ix := &packIndex{}
	d.sum(&ix.optSum)
	d.sum(&ix.inputSum)
	d.sum(&ix.jarSum)
	ix.jarSize = int64(d.uvarint())
	ix.hasJar = d.bool()
	n := d.count()
	ix.classes = make(map[string]*cachedClass, n)
	for i := 0; i < n && d.err == nil; i++ {
		raw := d.bytes()
		rd := indexDecoder{buf: raw}
		name, c := rd.class(scans, texts)
		if rd.err != nil || len(rd.buf) != 0 {
			return nil, errBadPack
		}
		c.raw = raw
		ix.classes[name] = c
	}
	if d.err != nil || len(d.buf) != 0 {
		return nil, errBadPack
	}
	return ix, nil
}

func (e *indexEncoder) class(name string, c *cachedClass) {
	e.str(name)
	e.buf = append(e.buf, c.sum[:]...)
	e.bool(c.parsed())
	switch {
	case c.info != nil:
		var info indexEncoder
		info.info(c.info)
		e.bytes(info.buf)
	case c.infoRaw != nil:
		e.bytes(c.infoRaw)
	default:
		e.str(c.warn)
	}
	e.buf = append(e.buf, c.plan[:]...)
	r := &c.result
	e.bool(r.rewritten)
	e.bool(r.deflated)
	e.uvarint(uint64(r.crc))
	e.uvarint(uint64(r.size))
	e.uvarint(uint64(r.off))
	e.uvarint(uint64(r.n))
	e.buf = append(e.buf, r.bodySum[:]...)
	e.uvarint(uint64(len(r.skipped)))
	for _, s := range r.skipped {
		e.uvarint(uint64(s.index))
		e.str(s.reason)
	}
	e.uvarint(uint64(len(r.warnings)))
	for _, w := range r.warnings {
		e.str(w)
	}
}

// info encodes a scan; the reasons of its methods are numbered in a table
// of their own, as a class has many methods and few reasons.
func (e *indexEncoder) info(ci *scan.Class) {
	e.str(ci.Name)
	e.str(ci.Super)
	e.str(ci.OrigName)
	e.uvarint(uint64(ci.Access))
	e.bool(ci.Versioned)
	e.bool(ci.CRCWrong)
	e.uvarint(uint64(ci.FocusIndex() + 1))
	e.bool(ci.FocusCode)
	e.bool(ci.FocusSuper)
	e.str(ci.BlockedText())
	e.str(ci.RuleText())
	// The methods' names back to back, each method's by offset and length.
	var text []byte
	for i := range ci.Methods {
		text = append(text, ci.Texts.Str(ci.Methods[i].Name)...)
	}
	e.bytes(text)
	codes := distinct(ci.Methods, func(m *scan.Method) scan.ReasonCode { return m.Reason })
	e.uvarint(uint64(len(codes)))
	for _, c := range codes {
		e.str(scan.Reasons.Text(c))
	}
	rules := distinct(ci.Methods, func(m *scan.Method) scan.ReasonCode { return m.Rule })
	e.uvarint(uint64(len(rules)))
	for _, c := range rules {
		e.str(scan.Reasons.Text(c))
	}
	// The class's descriptors once each, then each method's by number.
	descs := distinct(ci.Methods, func(m *scan.Method) uint32 { return m.Desc })
	e.uvarint(uint64(len(descs)))
	for _, d := range descs {
		e.str(ci.Texts.Str(d))
	}
	e.uvarint(uint64(len(ci.Methods)))
	at := 0
	for i := range ci.Methods {
		m := &ci.Methods[i]
		n := len(ci.Texts.Str(m.Name))
		e.uvarint(uint64(at))
		e.uvarint(uint64(n))
		at += n
		e.uvarint(uint64(slices.Index(descs, m.Desc)))
		e.uvarint(uint64(slices.Index(codes, m.Reason)))
		e.uvarint(uint64(slices.Index(rules, m.Rule)))
		e.uvarint(uint64(m.Access))
		e.bool(m.Trace)
	}
}

func (d *indexDecoder) class(scans bool, texts *scan.TextTable) (string, *cachedClass) {
	name := d.str()
	c := &cachedClass{}
	d.sum(&c.sum)
	if d.bool() {
		c.infoRaw = d.bytes()
		if scans {
			var err error
			if c.info, err = c.decodeInfo(texts); err != nil {
				d.fail()
			}
		}
	} else {
		c.warn = d.str()
	}
	d.sum(&c.plan)
	r := &c.result
	r.rewritten = d.bool()
	r.deflated = d.bool()
	r.crc = uint32(d.uvarint())
	r.size = int(d.uvarint())
	r.off = int64(d.uvarint())
	r.n = int64(d.uvarint())
	d.sum(&r.bodySum)
	if n := d.count(); n > 0 {
		r.skipped = make([]cachedSkip, n)
		for i := range r.skipped {
			r.skipped[i] = cachedSkip{index: int32(d.uvarint()), reason: d.str()}
		}
	}
	if n := d.count(); n > 0 {
		r.warnings = make([]string, n)
		for i := range r.warnings {
			r.warnings[i] = d.str()
		}
	}
	return name, c
}

func (d *indexDecoder) info(texts *scan.TextTable) *scan.Class {
	ci := &scan.Class{Texts: texts}
	ci.Name = d.str()
	ci.Super = d.str()
	ci.OrigName = d.str()
	ci.Access = uint16(d.uvarint())
	ci.Versioned = d.bool()
	ci.CRCWrong = d.bool()
	if f := d.uvarint(); f == 0 {
		ci.FocusAt = scan.NoFocus
	} else if f < scan.NoFocus+1 {
		ci.FocusAt = uint16(f - 1)
	} else {
		d.fail()
	}
	ci.FocusCode = d.bool()
	ci.FocusSuper = d.bool()
	ci.Blocked = scan.Reasons.Code(d.str())
	ci.Rule = scan.Reasons.Code(d.str())
	text := d.bytes()
	codes := make([]scan.ReasonCode, d.count())
	for i := range codes {
		codes[i] = scan.Reasons.Code(d.str())
	}
	rules := make([]scan.ReasonCode, d.count())
	for i := range rules {
		rules[i] = scan.Reasons.Code(d.str())
	}
	local := make([]uint32, d.count())
	for i := range local {
		var ok bool
		if local[i], ok = texts.InternBytes(d.bytes()); !ok {
			d.fail()
		}
	}
	n := d.count()
	ci.Methods = make([]scan.Method, n)
	for i := range ci.Methods {
		m := &ci.Methods[i]
		nameAt, nameLen, desc := d.uvarint(), d.uvarint(), d.uvarint()
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
		if r := d.uvarint(); r < uint64(len(codes)) {
			m.Reason = codes[r]
		} else {
			d.fail()
		}
		if r := d.uvarint(); r < uint64(len(rules)) {
			m.Rule = rules[r]
		} else {
			d.fail()
		}
		m.Access = uint16(d.uvarint())
		m.Trace = d.bool()
	}
	if d.err != nil {
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
