// Package ziptest writes zip files by hand, byte by byte, for the shapes
// that archive/zip, jar and zip never produce but that Java reads: a local
// header that disagrees with the central directory, names without the
// UTF-8 flag, entries placed past 4 GiB behind a hole, data descriptors
// with or without their signature. Tests build conformance inputs with it;
// nothing outside tests uses it.
package ziptest

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"time"
)

// Entry is one entry as the writer lays it out. The zero value of an
// override field means "the same as the central directory".
type Entry struct {
	Name    []byte
	Data    []byte // uncompressed content
	Deflate bool
	// Flags are the general-purpose bits of both headers (bit 3, the data
	// descriptor, is set from Descriptor; bit 11, UTF-8, is up to the
	// caller).
	Flags      uint16
	Descriptor bool // sizes and CRC follow the data, and are zero in the local header
	// DescriptorNoSig omits the optional 0x08074b50 signature.
	DescriptorNoSig bool
	ExternalAttrs   uint32
	CreatorVersion  uint16 // made-by (high byte: 3 = Unix, 0 = MS-DOS)
	Modified        time.Time
	Comment         []byte
	CenExtra        []byte
	LocExtra        []byte // the local header's extra field, when LocExtraSet
	LocExtraSet     bool
	LocName         []byte // the local header's name, when not nil
	LocZeroSizes    bool   // CRC and sizes zero in the local header without a descriptor
	LocTime         *time.Time
	// Dir makes the entry a directory in the MS-DOS attribute as well.
	Dir bool
	// DeclaredSize, when set, is the uncompressed size both headers
	// declare instead of the data's.
	DeclaredSize uint32
	// WrongCRC makes both headers (and the descriptor) declare a CRC
	// that is not the data's, as some packers write on purpose.
	WrongCRC bool
}

// Options shape the whole archive.
type Options struct {
	Comment []byte
	// Hole leaves this many bytes (a sparse gap when w is a file written
	// with a seek) before the first local header; offsets count it.
	Hole int64
	// Zip64 writes zip64 end records and zip64 extras for every entry
	// (forced also when an offset passes 4 GiB or there are more than
	// 65,534 entries).
	Zip64 bool
}

// Write lays out entries after opts.Hole bytes of w, which must be a
// WriteSeeker when Hole > 0 (it seeks over the hole).
func Write(w io.Writer, entries []Entry, opts Options) error {
	cw := &counter{w: w}
	if opts.Hole > 0 {
		s, ok := w.(io.Seeker)
		if !ok {
			return io.ErrShortWrite
		}
		if _, err := s.Seek(opts.Hole, io.SeekStart); err != nil {
			return err
		}
		cw.n = opts.Hole
	}
	type placed struct {
		e         *Entry
		offset    int64
		crc       uint32
		csize     uint64
		usize     uint64
		stored    []byte
		method    uint16
		flags     uint16
		dosTime   uint16
		dosDate   uint16
		needZip64 bool
	}
	var cen []placed
	zip64 := opts.Zip64 || len(entries) >= 0xffff
	for i := range entries {
		e := &entries[i]
		p := placed{e: e, offset: cw.n, crc: crc32.ChecksumIEEE(e.Data), usize: uint64(len(e.Data)), flags: e.Flags}
		if e.WrongCRC {
			p.crc ^= 0x5a5a5a5a
		}
		p.stored = e.Data
		if e.Deflate {
			var b bytes.Buffer
			fw, _ := flate.NewWriter(&b, flate.DefaultCompression)
			fw.Write(e.Data)
			fw.Close()
			p.stored, p.method = b.Bytes(), 8
		}
		p.csize = uint64(len(p.stored))
		if e.DeclaredSize != 0 {
			p.usize = uint64(e.DeclaredSize)
		}
		if e.Descriptor {
			p.flags |= 0x8
		}
		p.dosTime, p.dosDate = dosTime(e.Modified)
		p.needZip64 = zip64 || p.offset >= 0xffffffff
		if p.needZip64 {
			zip64 = true
		}
		name := e.Name
		if e.LocName != nil {
			name = e.LocName
		}
		extra := e.CenExtra
		if e.LocExtraSet {
			extra = e.LocExtra
		}
		lt, ld := p.dosTime, p.dosDate
		if e.LocTime != nil {
			lt, ld = dosTime(*e.LocTime)
		}
		var h bytes.Buffer
		put32(&h, 0x04034b50)
		put16(&h, 20)
		put16(&h, p.flags)
		put16(&h, p.method)
		put16(&h, lt)
		put16(&h, ld)
		if e.Descriptor || e.LocZeroSizes {
			put32(&h, 0)
			put32(&h, 0)
			put32(&h, 0)
		} else {
			put32(&h, p.crc)
			put32(&h, uint32(p.csize))
			put32(&h, uint32(p.usize))
		}
		put16(&h, uint16(len(name)))
		put16(&h, uint16(len(extra)))
		h.Write(name)
		h.Write(extra)
		h.Write(p.stored)
		if e.Descriptor {
			if !e.DescriptorNoSig {
				put32(&h, 0x08074b50)
			}
			put32(&h, p.crc)
			put32(&h, uint32(p.csize))
			put32(&h, uint32(p.usize))
		}
		if _, err := cw.Write(h.Bytes()); err != nil {
			return err
		}
		cen = append(cen, p)
	}
	cenStart := cw.n
	for _, p := range cen {
		e := p.e
		extra := e.CenExtra
		off32 := uint32(p.offset)
		if p.needZip64 {
			var z bytes.Buffer
			put16(&z, 0x0001)
			put16(&z, 8)
			binary.Write(&z, binary.LittleEndian, uint64(p.offset))
			extra = append(z.Bytes(), extra...)
			off32 = 0xffffffff
		}
		attrs := e.ExternalAttrs
		if e.Dir {
			attrs |= 0x10
		}
		var h bytes.Buffer
		put32(&h, 0x02014b50)
		put16(&h, e.CreatorVersion|20)
		put16(&h, 20)
		put16(&h, p.flags)
		put16(&h, p.method)
		put16(&h, p.dosTime)
		put16(&h, p.dosDate)
		put32(&h, p.crc)
		put32(&h, uint32(p.csize))
		put32(&h, uint32(p.usize))
		put16(&h, uint16(len(e.Name)))
		put16(&h, uint16(len(extra)))
		put16(&h, uint16(len(e.Comment)))
		put16(&h, 0) // disk
		put16(&h, 0) // internal attributes
		put32(&h, attrs)
		put32(&h, off32)
		h.Write(e.Name)
		h.Write(extra)
		h.Write(e.Comment)
		if _, err := cw.Write(h.Bytes()); err != nil {
			return err
		}
	}
	cenSize := cw.n - cenStart
	var t bytes.Buffer
	count16, size32, start32 := uint16(len(cen)), uint32(cenSize), uint32(cenStart)
	if zip64 {
		end64 := cw.n
		put32(&t, 0x06064b50)
		binary.Write(&t, binary.LittleEndian, uint64(44))
		put16(&t, 45)
		put16(&t, 45)
		put32(&t, 0)
		put32(&t, 0)
		binary.Write(&t, binary.LittleEndian, uint64(len(cen)))
		binary.Write(&t, binary.LittleEndian, uint64(len(cen)))
		binary.Write(&t, binary.LittleEndian, uint64(cenSize))
		binary.Write(&t, binary.LittleEndian, uint64(cenStart))
		put32(&t, 0x07064b50)
		put32(&t, 0)
		binary.Write(&t, binary.LittleEndian, uint64(end64))
		put32(&t, 1)
		count16, size32, start32 = 0xffff, 0xffffffff, 0xffffffff
		if len(cen) < 0xffff {
			count16 = uint16(len(cen))
		}
		if cenSize < 0xffffffff {
			size32 = uint32(cenSize)
		}
		if cenStart < 0xffffffff {
			start32 = uint32(cenStart)
		}
	}
	put32(&t, 0x06054b50)
	put16(&t, 0)
	put16(&t, 0)
	put16(&t, count16)
	put16(&t, count16)
	put32(&t, size32)
	put32(&t, start32)
	put16(&t, uint16(len(opts.Comment)))
	t.Write(opts.Comment)
	_, err := cw.Write(t.Bytes())
	return err
}

// Extended timestamp (0x5455) with the modification time only, as the
// central directory of Info-ZIP's zip holds it.
func ExtTime(t time.Time) []byte {
	var b bytes.Buffer
	put16(&b, 0x5455)
	put16(&b, 5)
	b.WriteByte(1)
	put32(&b, uint32(t.Unix()))
	return b.Bytes()
}

// ExtTimeLocal is the local header's extended timestamp: modification
// and access time.
func ExtTimeLocal(t time.Time) []byte {
	var b bytes.Buffer
	put16(&b, 0x5455)
	put16(&b, 9)
	b.WriteByte(3)
	put32(&b, uint32(t.Unix()))
	put32(&b, uint32(t.Unix()))
	return b.Bytes()
}

// UnixIDs is the Info-ZIP "ux" field (0x7875) with a uid and gid.
func UnixIDs(uid, gid uint32) []byte {
	var b bytes.Buffer
	put16(&b, 0x7875)
	put16(&b, 11)
	b.WriteByte(1)
	b.WriteByte(4)
	put32(&b, uid)
	b.WriteByte(4)
	put32(&b, gid)
	return b.Bytes()
}

// Alignment is the padding field Android's zipalign writes into a local
// header (0xD935: the alignment, then zero bytes) so that a stored
// entry's data starts on an align-byte boundary.
func Alignment(align uint16, pad int) []byte {
	var b bytes.Buffer
	put16(&b, 0xd935)
	put16(&b, uint16(2+pad))
	put16(&b, align)
	b.Write(make([]byte, pad))
	return b.Bytes()
}

func dosTime(t time.Time) (uint16, uint16) {
	if t.IsZero() {
		t = time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return uint16(t.Hour()<<11 | t.Minute()<<5 | t.Second()>>1),
		uint16((t.Year()-1980)<<9 | int(t.Month())<<5 | t.Day())
}

func put16(b *bytes.Buffer, v uint16) { binary.Write(b, binary.LittleEndian, v) }
func put32(b *bytes.Buffer, v uint32) { binary.Write(b, binary.LittleEndian, v) }

type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
