package jario

import (
	"errors"
	"io"
	"os"
	"runtime/debug"
)

// A mappedFile is a read-only memory map of a file. A cached run reads its
// inputs (and a pack's bodies) through one: hashing a jar, checksumming its
// entries and copying them out then cost no system call per entry and no
// copy into a read buffer, which is most of what a run that finds almost
// everything in the cache does.
//
// A mapped file that shrinks while mapped (another process rewrites the
// jar in place) makes reading past its new end fault. Every read here turns
// that fault into errFileShrank instead of a crash: ReadAt and writeTo
// are the only ways to the bytes.
type mappedFile struct{ data []byte }

var errFileShrank = errors.New("file shrank while being read (changed by another process?)")

// MmapBytes is mmapFile; tests replace it to run the path of systems
// without memory maps (reads) on Linux too.
var MmapBytes = mmapFile

// mapFile maps the first size bytes of f; ok is false where the platform
// or the file does not allow it, and the caller reads f instead.
func mapFile(f *os.File, size int64) (m *mappedFile, ok bool) {
	if size <= 0 || size != int64(int(size)) {
		return nil, false
	}
	data, err := MmapBytes(f, int(size))
	if err != nil {
		return nil, false
	}
	return &mappedFile{data: data}, true
}

func (m *mappedFile) unmap() {
	if m != nil && m.data != nil {
		munmapFile(m.data)
		m.data = nil
	}
}

func (m *mappedFile) size() int64 { return int64(len(m.data)) }

// ReadAt copies from the mapping (io.ReaderAt).
func (m *mappedFile) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if len(p) == 0 && off <= int64(len(m.data)) {
		return 0, nil
	}
	if off >= int64(len(m.data)) {
		return 0, io.EOF
	}
	defer catchFault(debug.SetPanicOnFault(true), &err)
	n = copy(p, m.data[off:])
	if n < len(p) {
		err = io.EOF
	}
	return n, err
}

// view calls fn with n bytes of the mapping from off, which fn must not
// keep; a fault while fn reads them is errFileShrank.
func (m *mappedFile) view(off, n int64, fn func([]byte)) (err error) {
	if off < 0 || n < 0 || off+n > int64(len(m.data)) {
		return io.ErrUnexpectedEOF
	}
	defer catchFault(debug.SetPanicOnFault(true), &err)
	fn(m.data[off : off+n])
	return nil
}

// writeTo writes the whole mapping to w (a hash) in pieces.
func (m *mappedFile) writeTo(w io.Writer) (err error) {
	defer catchFault(debug.SetPanicOnFault(true), &err)
	const piece = 4 << 20
	for off := 0; off < len(m.data); off += piece {
		if _, err := w.Write(m.data[off:min(off+piece, len(m.data))]); err != nil {
			return err
		}
	}
	return nil
}

// catchFault, deferred after debug.SetPanicOnFault(true), restores the
// goroutine's setting and turns a fault on the mapping into errFileShrank.
// Any other panic goes on.
func catchFault(wasOn bool, err *error) {
	debug.SetPanicOnFault(wasOn)
	r := recover()
	if r == nil {
		return
	}
	if _, fault := r.(interface{ Addr() uintptr }); fault {
		*err = errFileShrank
		return
	}
	panic(r)
}

// FileReader reads a file through a map where it can, else with system
// calls.
type FileReader struct {
	f    *os.File
	m    *mappedFile
	size int64
}

// OpenFileReader opens path, mapped when mapped is set (MapContents).
func OpenFileReader(path string, mapped bool) (*FileReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat() // the size of what is open
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &FileReader{f: f, size: st.Size()}
	if mapped {
		r.MapContents()
	}
	return r, nil
}

// MapContents makes r read through a memory map from now on, where the
// platform allows.
func (r *FileReader) MapContents() {
	if r.m == nil {
		r.m, _ = mapFile(r.f, r.size)
	}
}

func (r *FileReader) ReadAt(p []byte, off int64) (int, error) {
	if r.m != nil {
		return r.m.ReadAt(p, off)
	}
	return r.f.ReadAt(p, off)
}

// writeTo writes the whole file to w.
func (r *FileReader) CopyTo(w io.Writer) error {
	if r.m != nil {
		return r.m.writeTo(w)
	}
	return hashFrom(w, io.NewSectionReader(r.f, 0, r.size))
}

func (r *FileReader) Close() error {
	r.m.unmap()
	return r.f.Close()
}
