package jario

import (
	"archive/zip"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/tracebeat/tracebeat/instrument/store"
	"github.com/tracebeat/tracebeat/internal/atomicfile"
	"github.com/tracebeat/tracebeat/internal/outset"
)

// dirEntryDate is the MS-DOS date of jar entries that come from class
// directories, 1980-02-01 ((year-1980)<<9 | month<<5 | day), at midnight:
// fixed so the output does not depend on checkout times. The jar writer
// writes a header's MS-DOS fields as they are (FileHeader.Modified is
// archive/zip's, which it does not read): a header made here sets them.
const dirEntryDate = 0<<9 | 2<<5 | 1

// zipVersion20 is the version a reader needs for deflate and the version
// of the zip specification the entry was made to, as archive/zip writes.
const zipVersion20 = 20

// Sink receives the entries of one output in order.
type Sink interface {
	// CopyRaw copies an untouched jar entry without recompressing it.
	CopyRaw(f *zip.File) error
	// Put writes an entry; body is compressed when deflated is set.
	Put(name string, orig *Entry, body []byte, deflated bool, crc uint32, size int) error
	// Seen reports whether name was already written (merge mode).
	Seen(name string) bool
	Commit() error
	// Stage is commit for Options.Publish: the finished output goes into
	// the set, which the caller publishes with the maps.
	Stage(set *outset.Set) error
	// Where is the file or folder that holds the finished output: the
	// final path once committed, the temporary one once staged.
	Where() string
	Abort()
}

// JarSink writes a jar to a temporary file renamed into place on commit.
type JarSink struct {
	path    string
	tmp     *os.File // nil once finished
	tmpName string   // set when tmp is closed
	staged  bool     // handed to an outset.Set, not renamed
	Writer  *jarWriter
	Names   map[string]bool
	copyBuf []byte // raw copies (the sink is written by one goroutine)
}

// NewJarSink writes a jar at path.
func NewJarSink(path string) (*JarSink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	tmp, err := atomicfile.CreateTemp(path)
	if err != nil {
		return nil, err
	}
	j := &JarSink{path: path, tmp: tmp, Names: map[string]bool{}}
	j.Writer = newJarWriter(tmp, tmp)
	return j, nil
}

func (j *JarSink) Seen(name string) bool {
	if j.Names[name] {
		return true
	}
	j.Names[name] = true
	return false
}

func (j *JarSink) CopyRaw(f *zip.File) error {
	fh := f.FileHeader // the writer keeps no pointer to it
	if IsDirName(f.Name) && f.CompressedSize64 != 0 {
		// A directory stored as a deflated empty stream: archive/zip will not
		// write data for a directory, so store it empty, which reads the same.
		fh.Method, fh.CRC32, fh.CompressedSize64, fh.UncompressedSize64 = zip.Store, 0, 0, 0
		fh.Flags &^= 0x8
		return j.Writer.entryBytes(&fh, nil)
	}
	r, err := f.OpenRaw()
	if err != nil {
		return err
	}
	if j.copyBuf == nil {
		j.copyBuf = make([]byte, copyChunk)
	}
	return j.Writer.entry(&fh, r, j.copyBuf)
}

func (j *JarSink) Put(name string, orig *Entry, body []byte, deflated bool, crc uint32, size int) error {
	var fh zip.FileHeader
	if orig != nil && orig.ZipFile != nil {
		fh = orig.ZipFile.FileHeader
	} else {
		fh = zip.FileHeader{Name: name, ModifiedDate: dirEntryDate, ReaderVersion: zipVersion20, CreatorVersion: zipVersion20}
		fh.SetMode(0o644)
	}
	fh.Name = name
	fh.Flags &^= 0x8 // sizes are known: no data descriptor
	fh.CRC32 = crc
	fh.UncompressedSize64 = uint64(size)
	fh.CompressedSize64 = uint64(len(body))
	fh.Method = zip.Store
	if deflated {
		fh.Method = zip.Deflate
	}
	return j.Writer.entryBytes(&fh, body)
}

// HashOutput makes the sink hash what it writes, into the hasher it
// returns.
func (j *JarSink) HashOutput() *CheckHasher {
	h := NewCheckHasher()
	j.Writer = newJarWriter(nil, io.MultiWriter(j.tmp, h)) // a hashed jar takes no splices
	return &h
}

// Finish ends the jar: the zip directory written, the buffers flushed and
// let go, the file cut and closed. What is left until commit is a name:
// a run over a hundred jars held a megabyte of buffer and the zip
// writer's directory per jar until the end, and an open file each.
func (j *JarSink) Finish() error {
	if j.tmp == nil {
		return nil
	}
	err := j.Writer.close()
	j.Writer, j.Names, j.copyBuf = nil, nil, nil
	if err != nil {
		j.Abort()
		return err
	}
	return j.closeFile()
}

// closeFile closes the finished temporary file, readable like any jar.
func (j *JarSink) closeFile() error {
	// CreateTemp makes the file 0600; a jar is an ordinary readable file.
	err := j.tmp.Chmod(0o644)
	if cerr := j.tmp.Close(); err == nil {
		err = cerr
	}
	j.tmpName, j.tmp = j.tmp.Name(), nil
	if err != nil {
		os.Remove(j.tmpName)
	}
	return err
}

func (j *JarSink) Commit() error {
	if err := j.Finish(); err != nil {
		return err
	}
	return j.publish()
}

func (j *JarSink) Where() string {
	if j.staged {
		return j.tmpName
	}
	return j.path
}

// Stage finishes the jar and hands it to set instead of renaming it.
func (j *JarSink) Stage(set *outset.Set) error {
	if err := j.Finish(); err != nil {
		return err
	}
	j.handTo(set)
	return nil
}

// handTo gives the finished temporary file to set, which renames it.
func (j *JarSink) handTo(set *outset.Set) {
	set.Add(j.tmpName, j.path)
	j.staged = true
}

// publish renames the finished temporary file into place.
func (j *JarSink) publish() error {
	if err := atomicfile.Replace(j.tmpName, j.path); err != nil {
		os.Remove(j.tmpName)
		return err
	}
	return nil
}

func (j *JarSink) Abort() {
	if j.tmp != nil {
		j.tmpName = j.tmp.Name()
		j.tmp.Close()
		j.tmp = nil
	}
	os.Remove(j.tmpName)
}

// dirSink writes a class directory into a temporary directory that
// replaces the target on commit.
type dirSink struct {
	path, tmp string
	names     map[string]bool
	staged    bool
}

func NewDirSink(path string) (*dirSink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	tmp, err := atomicfile.MkdirTemp(path)
	if err != nil {
		return nil, err
	}
	return &dirSink{path: path, tmp: tmp, names: map[string]bool{}}, nil
}

func (d *dirSink) Seen(name string) bool {
	if d.names[name] {
		return true
	}
	d.names[name] = true
	return false
}

func (d *dirSink) CopyRaw(f *zip.File) error {
	return errors.New("internal error: raw zip copy into a directory")
}

func (d *dirSink) Put(name string, orig *Entry, body []byte, deflated bool, _ uint32, _ int) error {
	if deflated {
		return errors.New("internal error: compressed entry for a directory")
	}
	dst := filepath.Join(d.tmp, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if orig != nil && orig.mode != 0 {
		mode = orig.mode.Perm()
	}
	if err := os.WriteFile(dst, body, mode); err != nil {
		return err
	}
	if orig != nil && orig.file != "" {
		if st, err := os.Stat(orig.file); err == nil {
			_ = os.Chtimes(dst, st.ModTime(), st.ModTime())
		}
	}
	return nil
}

func (d *dirSink) Where() string {
	if d.staged {
		return d.tmp
	}
	return d.path
}

func (d *dirSink) Stage(set *outset.Set) error {
	// MkdirTemp makes the directory 0700; a class directory is ordinary.
	if err := os.Chmod(d.tmp, 0o755); err != nil {
		d.Abort()
		return err
	}
	set.Add(d.tmp, d.path)
	d.staged = true
	return nil
}

func (d *dirSink) Commit() error {
	// MkdirTemp makes the directory 0700; a class directory is ordinary.
	if err := os.Chmod(d.tmp, 0o755); err != nil {
		d.Abort()
		return err
	}
	if err := os.RemoveAll(d.path); err != nil {
		d.Abort()
		return err
	}
	if err := os.Rename(d.tmp, d.path); err != nil {
		d.Abort()
		return err
	}
	return nil
}

func (d *dirSink) Abort() { os.RemoveAll(d.tmp) }

// copiedJar is the sink of an output that is the jar of a pack (checked
// by prepareCache): a hard link where the file system allows, else a copy.
// The link is safe: every run replaces its outputs by rename, never in
// place, and a pack's jar is hashed before it is used again.
type copiedJar struct{ *JarSink }

func NewCopiedJar(target, src string) (*copiedJar, error) {
	s, err := NewJarSink(target)
	if err != nil {
		return nil, err
	}
	// The sink's temporary name becomes the link (or copy) of the jar.
	name := s.tmp.Name()
	s.tmp.Close()
	os.Remove(name)
	if err := store.LinkOrCopy(src, name); err != nil {
		return nil, err
	}
	if s.tmp, err = os.OpenFile(name, os.O_RDWR, 0); err != nil {
		os.Remove(name)
		return nil, err
	}
	return &copiedJar{s}, nil
}

// Commit renames the copy into place (the zip writer has nothing to add).
func (c *copiedJar) Commit() error {
	if err := c.close(); err != nil {
		return err
	}
	return c.publish()
}

func (c *copiedJar) Stage(set *outset.Set) error {
	if err := c.close(); err != nil {
		return err
	}
	c.handTo(set)
	return nil
}

func (c *copiedJar) close() error {
	if c.tmp == nil {
		return nil
	}
	return c.closeFile()
}
