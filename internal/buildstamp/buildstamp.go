// Package buildstamp writes a build's identity into one output of a run,
// as the resource Resource, where the recording runtime
// finds it on the class path.
//
// A jar gets the entry appended after its last one, laid out as Go's
// archive/zip lays out an entry (as the run's own jar writer does); an
// entry of that name that is already the jar's last (the stamp of an
// earlier run) is replaced. A jar whose file has other names (a hard link
// the run's cache holds) is written anew beside it and renamed over it, so
// the other names keep their bytes.
package buildstamp

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Resource is the entry the stamp is: the recording runtime reads every
// one the class path holds (jvmruntime's BuildIds.RESOURCE), and the
// recording carries what it found.
const Resource = "META-INF/tracebeat/build-id"

// entryTime is the stamp's time, fixed so that the same build gives the
// same bytes (the time jar entries from class directories get).
var entryTime = time.Date(1980, 2, 1, 0, 0, 0, 0, time.UTC)

// Dir writes the identity into the class folder at dir.
func Dir(dir, id string) error {
	path := filepath.Join(dir, filepath.FromSlash(Resource))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(id+"\n"), 0o644)
}

// end of central directory record, without zip64.
const (
	eocdSig = 0x06054b50
	eocdLen = 22
	dirSig  = 0x02014b50
)

// Jar appends the identity to the jar at path: in place when the file has
// no other name, else into a new file renamed over it. A jar with a zip64
// end record (over 65,535 entries or 4 GiB) is rewritten through
// archive/zip.
// The error names no file: the caller knows the name the user gave.
func Jar(path, id string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	// The directory, the end record and the comment: at most 64 KiB of
	// comment after the record, the directory before it.
	size := st.Size()
	back := min(size, eocdLen+0xFFFF)
	end := make([]byte, back)
	if _, err := f.ReadAt(end, size-back); err != nil {
		return err
	}
	eocd := bytes.LastIndex(end, []byte{0x50, 0x4b, 0x05, 0x06})
	if eocd < 0 || len(end)-eocd < eocdLen {
		return errors.New("no end of central directory record")
	}
	dirOff := int64(binary.LittleEndian.Uint32(end[eocd+16:]))
	tailStart := min(dirOff, size-back+int64(eocd))
	tail := make([]byte, size-tailStart)
	if _, err := f.ReadAt(tail, tailStart); err != nil {
		return err
	}
	dataEnd, newTail, err := stampedTail(tail, tailStart, id)
	if errors.Is(err, errZip64) {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out, err := stampedByRewrite(data, id)
		if err != nil {
			return err
		}
		f.Close()
		return replace(path, out)
	}
	if err != nil {
		return err
	}
	if soleName(st) {
		if err := f.Truncate(dataEnd); err != nil {
			return err
		}
		if _, err := f.WriteAt(newTail, dataEnd); err != nil {
			return err
		}
		return f.Close()
	}
	// Another name holds these bytes: copy what stays, then the new tail.
	tmp, err := os.OpenFile(path+".stamp", os.O_RDWR|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(tmp, io.NewSectionReader(f, 0, dataEnd))
	if err == nil {
		_, err = tmp.Write(newTail)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		f.Close()
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

var errZip64 = errors.New("zip64 jar")

// stampedTail lays out the jar's new tail: tail is the file from offset
// start on (the directory, the end record and the comment). It returns
// where the new tail goes (the directory's offset, or the start of the
// stamp of an earlier run) and its bytes: the stamp's entry, the directory
// with its record, the end record and the comment.
func stampedTail(tail []byte, start int64, id string) (int64, []byte, error) {
	eocd := bytes.LastIndex(tail, []byte{0x50, 0x4b, 0x05, 0x06})
	if eocd < 0 || len(tail)-eocd < eocdLen {
		return 0, nil, errors.New("no end of central directory record")
	}
	le := binary.LittleEndian
	end := tail[eocd:]
	entries := int(le.Uint16(end[10:]))
	dirSize := int64(le.Uint32(end[12:]))
	dirOff := int64(le.Uint32(end[16:]))
	if eocd >= 20 && le.Uint32(tail[eocd-20:]) == 0x07064b50 || entries == 0xFFFF || dirSize == 0xFFFFFFFF || dirOff == 0xFFFFFFFF {
		return 0, nil, errZip64
	}
	if dirOff != start || dirOff+dirSize != start+int64(eocd) || le.Uint16(end[4:]) != 0 || le.Uint16(end[8:]) != uint16(entries) {
		return 0, nil, errors.New("the central directory is not where the end record says")
	}
	dir := tail[:eocd]
	comment := tail[eocd+eocdLen:]
	// The last record names the stamp of an earlier run: drop it.
	dataEnd := dirOff
	if last, off, ok := lastRecord(dir, entries); ok && string(last.name) == Resource && int64(last.offset) < dirOff {
		dir = dir[:off]
		dataEnd = int64(last.offset)
		entries--
	}
	local, record, err := entryBytes(id)
	if err != nil {
		return 0, nil, err
	}
	le.PutUint32(record[42:], uint32(dataEnd))
	newDirOff := dataEnd + int64(len(local))
	if entries+1 >= 0xFFFF || newDirOff >= 0xFFFFFFFF {
		return 0, nil, errZip64
	}
	var b bytes.Buffer
	b.Grow(len(local) + len(dir) + len(record) + eocdLen + len(comment))
	b.Write(local)
	b.Write(dir)
	b.Write(record)
	var e [eocdLen]byte
	le.PutUint32(e[0:], eocdSig)
	le.PutUint16(e[8:], uint16(entries+1))
	le.PutUint16(e[10:], uint16(entries+1))
	le.PutUint32(e[12:], uint32(len(dir)+len(record)))
	le.PutUint32(e[16:], uint32(newDirOff))
	le.PutUint16(e[20:], uint16(len(comment)))
	b.Write(e[:])
	b.Write(comment)
	return dataEnd, b.Bytes(), nil
}

type record struct {
	name   []byte
	offset uint32
}

// lastRecord walks the directory's records and returns the last, with
// where it starts in dir.
func lastRecord(dir []byte, n int) (record, int, bool) {
	le := binary.LittleEndian
	var last record
	lastOff, off := -1, 0
	for i := 0; i < n; i++ {
		if off+46 > len(dir) || le.Uint32(dir[off:]) != dirSig {
			return record{}, 0, false
		}
		nameLen := int(le.Uint16(dir[off+28:]))
		extraLen := int(le.Uint16(dir[off+30:]))
		commentLen := int(le.Uint16(dir[off+32:]))
		next := off + 46 + nameLen + extraLen + commentLen
		if next > len(dir) {
			return record{}, 0, false
		}
		last = record{name: dir[off+46 : off+46+nameLen], offset: le.Uint32(dir[off+42:])}
		lastOff, off = off, next
	}
	return last, lastOff, lastOff >= 0
}

// entryBytes lays out the stamp as archive/zip does: its local header and
// data, and its directory record (with offset 0).
func entryBytes(id string) (local, record []byte, err error) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	fh := &zip.FileHeader{Name: Resource, Method: zip.Store, Modified: entryTime}
	fh.SetMode(0o644)
	w, err := zw.CreateHeader(fh)
	if err != nil {
		return nil, nil, err
	}
	if _, err := io.WriteString(w, id+"\n"); err != nil {
		return nil, nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	all := b.Bytes()
	dirOff := int(binary.LittleEndian.Uint32(all[len(all)-eocdLen+16:]))
	return all[:dirOff], all[dirOff : len(all)-eocdLen], nil
}

// stampedByRewrite copies every entry as it is through archive/zip and
// adds the stamp, for the jars stamped cannot patch.
func stampedByRewrite(data []byte, id string) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i, f := range zr.File {
		if i == len(zr.File)-1 && f.Name == Resource {
			break
		}
		if err := zw.Copy(f); err != nil {
			return nil, err
		}
	}
	fh := &zip.FileHeader{Name: Resource, Method: zip.Store, Modified: entryTime}
	fh.SetMode(0o644)
	w, err := zw.CreateHeader(fh)
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(w, id+"\n"); err != nil {
		return nil, err
	}
	if err := zw.SetComment(zr.Comment); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// replace writes data to a new file beside path and renames it over path.
func replace(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp := path + ".stamp"
	if err := os.WriteFile(tmp, data, st.Mode().Perm()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
