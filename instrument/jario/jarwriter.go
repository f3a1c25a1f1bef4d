package jario

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// jarWriter writes a zip archive byte for byte as archive/zip's Writer
// does with CreateRaw and Close (TestJarWriterMatchesArchiveZip), with
// one thing more: it can splice a run of entries, local bytes and
// directory records, from an archive it wrote before. A merged jar's
// unchanged input is copied so from the last output, one copy of its
// bytes instead of thousands of entries written again.
type jarWriter struct {
	file    *os.File      // for splices: written directly once bw is flushed
	bw      *bufio.Writer // to the file, or to what also hashes it
	Off     int64         // bytes written so far
	dir     []byte        // the central directory's records so far
	records int
	// section, when set, receives the local bytes written (not those
	// spliced): an input's part of a merged jar is checked by their sum.
	section *CheckHasher
	// Where the span begun last starts: its offset, its first record,
	// and where that record is in dir.
	spanStart int64
	spanFirst int
	spanDir   int
	comment   string
	scratch   [zip64EndLen + zip64LocatorLen]byte
}

// The archive's fixed-size parts and the markers of its zip64 form.
const (
	localHeaderLen  = 30
	dirRecordLen    = 46
	dirEndLen       = 22
	zip64EndLen     = 56
	zip64LocatorLen = 20
	descriptorLen   = 16
	descriptor64Len = 24
	zip64ExtraLen   = 28
	uint16max       = 1<<16 - 1
	MaxUint32       = 1<<32 - 1
	dirRecordOffset = 42 // Where a directory record holds its entry's offset
)

const (
	sigLocal      = 0x04034b50
	sigDirRecord  = 0x02014b50
	sigDirEnd     = 0x06054b50
	sigZip64End   = 0x06064b50
	sigZip64Loc   = 0x07064b50
	sigDescriptor = 0x08074b50
)

// newJarWriter writes to out, which is file or writes it (nil file: a
// writer that takes no splices).
func newJarWriter(file *os.File, out io.Writer) *jarWriter {
	return &jarWriter{file: file, bw: bufio.NewWriterSize(out, 1<<20)}
}

func (w *jarWriter) Write(p []byte) (int, error) {
	if w.section != nil {
		w.section.Write(p)
	}
	n, err := w.bw.Write(p)
	w.Off += int64(n)
	return n, err
}

func (w *jarWriter) writeString(s string) error {
	if w.section != nil {
		w.section.writeString(s)
	}
	n, err := w.bw.WriteString(s)
	w.Off += int64(n)
	return err
}

// SetComment sets the archive comment, as zip.Writer.SetComment.
func (w *jarWriter) SetComment(c string) error {
	if len(c) > uint16max {
		return errors.New("zip: Writer.Comment too long")
	}
	w.comment = c
	return nil
}

// entry writes one entry whose data (compressed as fh.Method says) is
// read from data: the local header, the data, the data descriptor when
// fh's flags call for one, and its directory record.
func (w *jarWriter) entry(fh *zip.FileHeader, data io.Reader, buf []byte) error {
	if err := w.header(fh); err != nil {
		return err
	}
	isDir := IsDirName(fh.Name)
	if data != nil {
		if isDir {
			// archive/zip writes no data for a directory.
			if n, _ := io.ReadFull(data, buf[:1]); n > 0 {
				return errors.New("zip: write to directory")
			}
		} else if _, err := io.CopyBuffer(w, data, buf); err != nil {
			return err
		}
	}
	if isDir || fh.Flags&0x8 == 0 {
		return nil
	}
	return w.descriptor(fh)
}

// entryBytes is entry with the data in memory.
func (w *jarWriter) entryBytes(fh *zip.FileHeader, data []byte) error {
	if err := w.header(fh); err != nil {
		return err
	}
	if IsDirName(fh.Name) {
		if len(data) > 0 {
			return errors.New("zip: write to directory")
		}
		return nil
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if fh.Flags&0x8 == 0 {
		return nil
	}
	return w.descriptor(fh)
}

// header writes fh's local header and adds its directory record.
func (w *jarWriter) header(fh *zip.FileHeader) error {
	if len(fh.Name) > uint16max {
		return errors.New("zip: FileHeader.Name too long")
	}
	if len(fh.Extra) > uint16max {
		return errors.New("zip: FileHeader.Extra too long")
	}
	csize, usize := uint32(min(fh.CompressedSize64, MaxUint32)), uint32(min(fh.UncompressedSize64, MaxUint32))
	var b [localHeaderLen]byte
	binary.LittleEndian.PutUint32(b[0:], sigLocal)
	if fh.Flags&0x8 == 0 {
		putHeaderFields(b[4:], fh, fh.CRC32, csize, usize, len(fh.Extra))
	} else { // the CRC and sizes are in the data descriptor
		putHeaderFields(b[4:], fh, 0, 0, 0, len(fh.Extra))
	}
	w.addRecord(fh, csize, usize)
	if _, err := w.Write(b[:]); err != nil {
		return err
	}
	if err := w.writeString(fh.Name); err != nil {
		return err
	}
	_, err := w.Write(fh.Extra)
	return err
}

// putHeaderFields puts the fields a local header and a directory record
// share, in the same order: versions needed, flags, method, time and
// date, CRC, sizes, and the lengths of the name and extra field.
func putHeaderFields(b []byte, fh *zip.FileHeader, crc, csize, usize uint32, extraLen int) {
	le := binary.LittleEndian
	le.PutUint16(b[0:], fh.ReaderVersion)
	le.PutUint16(b[2:], fh.Flags)
	le.PutUint16(b[4:], fh.Method)
	le.PutUint16(b[6:], fh.ModifiedTime)
	le.PutUint16(b[8:], fh.ModifiedDate)
	le.PutUint32(b[10:], crc)
	le.PutUint32(b[14:], csize)
	le.PutUint32(b[18:], usize)
	le.PutUint16(b[22:], uint16(len(fh.Name)))
	le.PutUint16(b[24:], uint16(extraLen))
}

// addRecord adds the directory record of fh's entry at the current offset.
func (w *jarWriter) addRecord(fh *zip.FileHeader, csize, usize uint32) {
	offset := uint64(w.Off)
	extra := fh.Extra
	zip64 := isZip64(fh) || offset >= MaxUint32
	if zip64 {
		// Both sizes and the offset move to a zip64 extra field.
		csize, usize = MaxUint32, MaxUint32
		var x [zip64ExtraLen]byte
		binary.LittleEndian.PutUint16(x[0:], 0x0001)
		binary.LittleEndian.PutUint16(x[2:], 24)
		binary.LittleEndian.PutUint64(x[4:], fh.UncompressedSize64)
		binary.LittleEndian.PutUint64(x[12:], fh.CompressedSize64)
		binary.LittleEndian.PutUint64(x[20:], offset)
		extra = append(extra[:len(extra):len(extra)], x[:]...)
	}
	var b [dirRecordLen]byte
	le := binary.LittleEndian
	le.PutUint32(b[0:], sigDirRecord)
	le.PutUint16(b[4:], fh.CreatorVersion)
	putHeaderFields(b[6:], fh, fh.CRC32, csize, usize, len(extra))
	le.PutUint16(b[32:], uint16(len(fh.Comment)))
	le.PutUint32(b[38:], fh.ExternalAttrs)
	le.PutUint32(b[dirRecordOffset:], uint32(min(offset, MaxUint32)))
	w.dir = append(w.dir, b[:]...)
	w.dir = append(w.dir, fh.Name...)
	w.dir = append(w.dir, extra...)
	w.dir = append(w.dir, fh.Comment...)
	w.records++
}

func isZip64(fh *zip.FileHeader) bool {
	return fh.CompressedSize64 >= MaxUint32 || fh.UncompressedSize64 >= MaxUint32
}

// descriptor writes the data descriptor of fh's entry.
func (w *jarWriter) descriptor(fh *zip.FileHeader) error {
	var b [descriptor64Len]byte
	le := binary.LittleEndian
	le.PutUint32(b[0:], sigDescriptor)
	le.PutUint32(b[4:], fh.CRC32)
	if isZip64(fh) {
		le.PutUint64(b[8:], fh.CompressedSize64)
		le.PutUint64(b[16:], fh.UncompressedSize64)
		_, err := w.Write(b[:descriptor64Len])
		return err
	}
	le.PutUint32(b[8:], uint32(fh.CompressedSize64))
	le.PutUint32(b[12:], uint32(fh.UncompressedSize64))
	_, err := w.Write(b[:descriptorLen])
	return err
}

// splice copies the entries of a span of src, an archive this writer
// wrote: its local bytes [start, end), then records, their directory
// records as src holds them, each moved to its new offset. The records
// must be of the plain form (checkSpan): offsets and sizes under 4 GB.
func (w *jarWriter) splice(src *os.File, start, end int64, records []byte) error {
	shift := w.Off - start
	if w.file == nil || w.Off+(end-start) >= MaxUint32 {
		return errors.New("internal error: a splice into a hashed jar or past 4 GB")
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	// The file's own ReadFrom copies within the kernel where it can
	// (copy_file_range on Linux, from a file or a file limited), and by
	// reading and writing elsewhere.
	if _, err := src.Seek(start, io.SeekStart); err != nil {
		return err
	}
	n, err := w.file.ReadFrom(io.LimitReader(src, end-start))
	w.Off += n
	if err != nil {
		return err
	}
	if n != end-start {
		return fmt.Errorf("%s: %d bytes copied of %d", src.Name(), n, end-start)
	}
	at := len(w.dir)
	w.dir = append(w.dir, records...)
	return eachRecord(w.dir[at:], func(rec []byte) error {
		old := int64(binary.LittleEndian.Uint32(rec[dirRecordOffset:]))
		binary.LittleEndian.PutUint32(rec[dirRecordOffset:], uint32(old+shift))
		w.records++
		return nil
	})
}

// eachRecord calls fn with each directory record of dir, in order.
func eachRecord(dir []byte, fn func(rec []byte) error) error {
	for len(dir) > 0 {
		if len(dir) < dirRecordLen || binary.LittleEndian.Uint32(dir) != sigDirRecord {
			return errors.New("zip: not a directory record")
		}
		n := dirRecordLen + int(binary.LittleEndian.Uint16(dir[28:])) +
			int(binary.LittleEndian.Uint16(dir[30:])) + int(binary.LittleEndian.Uint16(dir[32:]))
		if n > len(dir) {
			return errors.New("zip: directory record cut short")
		}
		if err := fn(dir[:n]); err != nil {
			return err
		}
		dir = dir[n:]
	}
	return nil
}

// close writes the central directory and its end record and flushes.
func (w *jarWriter) close() error {
	w.section = nil
	start := w.Off
	if _, err := w.Write(w.dir); err != nil {
		return err
	}
	end := w.Off
	records, size, offset := uint64(w.records), uint64(end-start), uint64(start)
	le := binary.LittleEndian
	if records >= uint16max || size >= MaxUint32 || offset >= MaxUint32 {
		b := w.scratch[:]
		le.PutUint32(b[0:], sigZip64End)
		le.PutUint64(b[4:], zip64EndLen-12)
		le.PutUint16(b[12:], 45) // made by and needed: zip 4.5
		le.PutUint16(b[14:], 45)
		le.PutUint32(b[16:], 0)
		le.PutUint32(b[20:], 0)
		le.PutUint64(b[24:], records)
		le.PutUint64(b[32:], records)
		le.PutUint64(b[40:], size)
		le.PutUint64(b[48:], offset)
		le.PutUint32(b[56:], sigZip64Loc)
		le.PutUint32(b[60:], 0)
		le.PutUint64(b[64:], uint64(end))
		le.PutUint32(b[72:], 1)
		if _, err := w.Write(b); err != nil {
			return err
		}
		records, size, offset = uint16max, MaxUint32, MaxUint32
	}
	var b [dirEndLen]byte
	le.PutUint32(b[0:], sigDirEnd)
	le.PutUint16(b[8:], uint16(records))
	le.PutUint16(b[10:], uint16(records))
	le.PutUint32(b[12:], uint32(size))
	le.PutUint32(b[16:], uint32(offset))
	le.PutUint16(b[20:], uint16(len(w.comment)))
	if _, err := w.Write(b[:]); err != nil {
		return err
	}
	if err := w.writeString(w.comment); err != nil {
		return err
	}
	w.dir = nil
	return w.bw.Flush()
}
