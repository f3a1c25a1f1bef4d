package jario

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Input is one jar or class directory given on the command line.
type Input struct {
	Path    string
	IsDir   bool
	Jar     *FileReader // jars: open from the scan to the end of the write (mapped in a cached run)
	listed  bool        // entries are known (list)
	Zip     *zip.Reader // jars: the directory, nil while dropped
	Entries []Entry
	// fileSums are a directory's entry sums by entry, once its check was
	// computed (DirCheck).
	fileSums []Checksum
}

// Entry is one file of an input: a zip entry or a file under a directory.
type Entry struct {
	Name    string    // slash-separated path inside the input
	ZipFile *zip.File // jars
	file    string    // directories: absolute path
	mode    fs.FileMode
	// crcWrong is set (atomically: the scan and the rewrite read an entry
	// on different workers) when its contents do not match the CRC its
	// header declares. Such an entry is read as Java's class loader reads
	// it, ignoring the CRC, and the run warns about it (wrongCRCWarning).
	crcWrong uint32
}

// markCRCWrong records that the entry's contents do not match its CRC.
func (e *Entry) markCRCWrong() { atomic.StoreUint32(&e.crcWrong, 1) }

// HasWrongCRC reports whether a read of the entry found a wrong CRC.
func (e *Entry) HasWrongCRC() bool { return atomic.LoadUint32(&e.crcWrong) != 0 }

func (e *Entry) IsClass() bool { return strings.HasSuffix(e.Name, ".class") }

// MaxEntrySize bounds what one entry may inflate to, so a corrupt or
// hostile size field cannot make us allocate without limit.
const MaxEntrySize = 1 << 30

// maxDeflateRatio bounds what a deflate stream can inflate to per byte: a
// stored block of 258-byte matches gives at most 1032 bytes per byte.
const maxDeflateRatio = 1032

// Read returns the entry's uncompressed bytes in a buffer from GetBuffer;
// the caller gives it back with PutBuffer when done.
//
// A deflated jar entry is read whole in one ReadAt and inflated from
// memory, which spares the per-4 KB reads and the reader state archive/zip
// allocates per entry; the size and CRC the zip directory declares are
// checked as archive/zip would.
func (e *Entry) Read() ([]byte, error) {
	if e.ZipFile == nil {
		return os.ReadFile(e.file)
	}
	if !e.fastPath() {
		return e.readThroughArchive()
	}
	raw, err := e.Stored()
	if err != nil {
		return nil, err
	}
	defer PutBuffer(raw)
	return e.Contents(raw)
}

// fastPath reports whether stored and contents can read a jar entry
// themselves; other compression methods, and an entry whose directory
// record has no CRC, are left to archive/zip.
func (e *Entry) fastPath() bool {
	m := e.ZipFile.Method
	return (m == zip.Deflate || m == zip.Store) && (e.ZipFile.CRC32 != 0 || e.ZipFile.UncompressedSize64 == 0)
}

// Stored returns what the entry holds as stored: a jar entry's compressed
// bytes, a file's bytes. Jar entries come in a buffer from GetBuffer.
func (e *Entry) Stored() ([]byte, error) {
	if e.ZipFile == nil {
		return os.ReadFile(e.file)
	}
	return e.rawBytes()
}

// Contents returns a jar entry's uncompressed bytes, given its stored
// bytes, in a new buffer from GetBuffer, after checking their size. A CRC
// that does not match is not an error: java.util.zip.ZipFile, which the
// class loader reads jars with, never checks it, and packers write wrong
// ones on purpose; the entry is marked (markCRCWrong) for a warning.
func (e *Entry) Contents(raw []byte) ([]byte, error) {
	if !e.fastPath() {
		return e.readThroughArchive()
	}
	size := e.ZipFile.UncompressedSize64
	if size > MaxEntrySize {
		return nil, fmt.Errorf("entry declares %d bytes uncompressed, more than %d", size, MaxEntrySize)
	}
	if e.ZipFile.Method == zip.Deflate && size > uint64(len(raw))*maxDeflateRatio+64 {
		// Refused before the buffer is made: a few damaged bytes must not
		// cost a gigabyte.
		return nil, fmt.Errorf("entry declares %d bytes uncompressed from %d compressed, more than deflate can produce", size, len(raw))
	}
	buf := GetBuffer(int(size))
	if e.ZipFile.Method == zip.Store {
		if len(raw) != len(buf) {
			PutBuffer(buf)
			return nil, fmt.Errorf("stored entry has %d bytes, its header declares %d", len(raw), size)
		}
		copy(buf, raw)
	} else if err := inflateInto(buf, raw); err != nil {
		PutBuffer(buf)
		return nil, err
	}
	if crc32.ChecksumIEEE(buf) != e.ZipFile.CRC32 {
		e.markCRCWrong()
	}
	return buf, nil
}

// rawBytes returns the entry's stored (compressed) bytes in a buffer from
// GetBuffer.
func (e *Entry) rawBytes() ([]byte, error) {
	if e.ZipFile.CompressedSize64 > MaxEntrySize {
		return nil, fmt.Errorf("entry declares %d bytes compressed, more than %d", e.ZipFile.CompressedSize64, MaxEntrySize)
	}
	r, err := e.ZipFile.OpenRaw()
	if err != nil {
		return nil, err
	}
	raw := GetBuffer(int(e.ZipFile.CompressedSize64))
	if len(raw) == 0 {
		// An empty stored entry: io.SectionReader (what OpenRaw returns)
		// answers any read at its end, even of no bytes, with io.EOF.
		return raw, nil
	}
	if ra, ok := r.(io.ReaderAt); ok {
		_, err = ra.ReadAt(raw, 0)
	} else {
		_, err = io.ReadFull(r, raw)
	}
	if err != nil {
		PutBuffer(raw)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("its %d bytes of compressed data run past the end of the jar", e.ZipFile.CompressedSize64)
		}
		return nil, fmt.Errorf("reading compressed data: %w", err)
	}
	return raw, nil
}

// inflateInto inflates the deflate stream src into exactly len(dst) bytes
// and checks that the stream ends there.
func inflateInto(dst, src []byte) error {
	var br bytes.Reader
	br.Reset(src)
	rc := newInflater(&br)
	defer rc.Close()
	if _, err := io.ReadFull(rc, dst); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	var probe [1]byte
	if n, err := rc.Read(probe[:]); n != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			err = fmt.Errorf("entry is longer than its declared %d bytes", len(dst))
		}
		return err
	}
	return nil
}

// readThroughArchive reads an entry with archive/zip's own reader, for the
// compression methods and CRC conventions the fast path leaves to it.
func (e *Entry) readThroughArchive() ([]byte, error) {
	if size := e.ZipFile.UncompressedSize64; size > MaxEntrySize {
		return nil, fmt.Errorf("entry declares %d bytes uncompressed, more than %d", size, MaxEntrySize)
	}
	rc, err := e.ZipFile.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	buf := GetBuffer(int(e.ZipFile.UncompressedSize64))
	if _, err := io.ReadFull(rc, buf); err != nil {
		PutBuffer(buf)
		return nil, err
	}
	// Reading on to EOF makes archive/zip verify the size and CRC; a
	// wrong CRC is read as Java reads it (see contents).
	var probe [1]byte
	n, err := rc.Read(probe[:])
	if n == 0 && errors.Is(err, zip.ErrChecksum) {
		e.markCRCWrong()
		err = io.EOF
	}
	if n != 0 || err != io.EOF {
		PutBuffer(buf)
		if err == nil || err == io.EOF {
			err = fmt.Errorf("entry is longer than its declared %d bytes", len(buf))
		}
		return nil, err
	}
	return buf, nil
}

// OpenInput opens a jar and reads its directory, or lists a directory
// (files sorted by path, so the order never depends on the file system).
func OpenInput(path string) (*Input, error) {
	in, err := OpenUnlisted(path)
	if err != nil {
		return nil, err
	}
	if err := in.List(); err != nil {
		in.Close()
		return nil, err
	}
	return in, nil
}

// OpenUnlisted opens a jar without reading its directory yet (a run that
// finds a jar unchanged in the cache never needs it), or lists a
// directory.
func OpenUnlisted(path string) (*Input, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	in := &Input{Path: path, IsDir: st.IsDir()}
	if in.IsDir {
		err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if !info.Mode().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(path, p)
			if err != nil {
				return err
			}
			in.Entries = append(in.Entries, Entry{Name: filepath.ToSlash(rel), file: p, mode: info.Mode()})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		sort.Slice(in.Entries, func(i, j int) bool { return in.Entries[i].Name < in.Entries[j].Name })
		in.listed = true
		return in, nil
	}
	if in.Jar, err = OpenFileReader(path, false); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return in, nil
}

// List reads a jar's directory into its entries, once.
func (in *Input) List() error {
	if in.listed {
		return nil
	}
	zr, err := in.readDirectory()
	if err != nil {
		return fmt.Errorf("%s: not a readable jar: %w", in.Path, err)
	}
	for _, f := range zr.File {
		if !utf8.ValidString(f.Name) {
			// Java's class path reads every name as UTF-8 and refuses the
			// whole jar ("invalid CEN header (bad entry name)").
			return fmt.Errorf("%s: %q: entry name is not UTF-8 (an old CP437 name?), which the JVM refuses", in.Path, f.Name)
		}
	}
	in.Zip, in.listed = zr, true
	in.Entries = make([]Entry, 0, len(zr.File))
	for _, f := range zr.File {
		in.Entries = append(in.Entries, Entry{Name: f.Name, ZipFile: f})
	}
	return nil
}

func (in *Input) readDirectory() (*zip.Reader, error) {
	zr, err := zip.NewReader(in.Jar, in.Jar.size)
	if err != nil {
		return nil, err
	}
	zr.RegisterDecompressor(zip.Deflate, newInflater)
	return zr, nil
}

func (in *Input) Close() {
	if in.Jar != nil {
		in.Jar.Close()
		in.Jar = nil
	}
	in.Drop()
}

// Drop lets go of a jar's zip directory, a few hundred bytes per entry
// (25 MB for the lab corpus), between the scan and the write of its
// output and after it; the entry names stay. The jar stays open, so load
// reads the directory of the same file again. Entries cannot be read
// while dropped.
func (in *Input) Drop() {
	if in.IsDir {
		return
	}
	in.Zip = nil
	for j := range in.Entries {
		in.Entries[j].ZipFile = nil
	}
}

// Load reads a dropped jar's directory again, which must list the
// entries the scan saw.
func (in *Input) Load() error {
	if in.IsDir || in.Zip != nil {
		return nil
	}
	if in.Jar == nil {
		return fmt.Errorf("%s: internal error: jar read after it was closed", in.Path)
	}
	zr, err := in.readDirectory()
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	if len(zr.File) != len(in.Entries) {
		return fmt.Errorf("%s: jar changed while being instrumented (%d entries, then %d)", in.Path, len(in.Entries), len(zr.File))
	}
	for j, f := range zr.File {
		if f.Name != in.Entries[j].Name {
			return fmt.Errorf("%s: jar changed while being instrumented (entry %d: %s, then %s)", in.Path, j, in.Entries[j].Name, f.Name)
		}
		in.Entries[j].ZipFile = f
	}
	in.Zip = zr
	return nil
}

// IsSignatureFile reports the files of a jar signature, which rewriting
// invalidates.
func IsSignatureFile(name string) bool {
	if !strings.HasPrefix(name, "META-INF/") || strings.Count(name, "/") != 1 {
		return false
	}
	base := strings.ToUpper(name[len("META-INF/"):])
	for _, ext := range []string{".SF", ".RSA", ".DSA", ".EC"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return strings.HasPrefix(base, "SIG-")
}

// VersionedClass reports whether a class entry is a multi-release
// variant (META-INF/versions/N/...), and returns its release number.
func VersionedClass(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "META-INF/versions/")
	if !ok {
		return "", false
	}
	n, _, ok := strings.Cut(rest, "/")
	return n, ok
}

func IsDirName(name string) bool { return len(name) > 0 && name[len(name)-1] == '/' }
