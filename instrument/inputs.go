package instrument

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

// input is one jar or class directory given on the command line.
type input struct {
	path    string
	isDir   bool
	jar     *fileReader // jars: open from the scan to the end of the write (mapped in a cached run)
	listed  bool        // entries are known (list)
	zr      *zip.Reader // jars: the directory, nil while dropped
	entries []entry
	// fileSums are a directory's entry sums by entry, once its check was
	// computed (dirCheck).
	fileSums []checksum
}

// entry is one file of an input: a zip entry or a file under a directory.
type entry struct {
	name string    // slash-separated path inside the input
	zf   *zip.File // jars
	file string    // directories: absolute path
	mode fs.FileMode
	// crcWrong is set (atomically: the scan and the rewrite read an entry
	// on different workers) when its contents do not match the CRC its
	// header declares. Such an entry is read as Java's class loader reads
	// it, ignoring the CRC, and the run warns about it (wrongCRCWarning).
	crcWrong uint32
}

// markCRCWrong records that the entry's contents do not match its CRC.
func (e *entry) markCRCWrong() { atomic.StoreUint32(&e.crcWrong, 1) }

// hasWrongCRC reports whether a read of the entry found a wrong CRC.
func (e *entry) hasWrongCRC() bool { return atomic.LoadUint32(&e.crcWrong) != 0 }

func (e *entry) isClass() bool { return strings.HasSuffix(e.name, ".class") }

// maxEntrySize bounds what one entry may inflate to, so a corrupt or
// hostile size field cannot make us allocate without limit.
const maxEntrySize = 1 << 30

// maxDeflateRatio bounds what a deflate stream can inflate to per byte: a
// stored block of 258-byte matches gives at most 1032 bytes per byte.
const maxDeflateRatio = 1032

// read returns the entry's uncompressed bytes in a buffer from getBuffer;
// the caller gives it back with putBuffer when done.
//
// A deflated jar entry is read whole in one ReadAt and inflated from
// memory, which spares the per-4 KB reads and the reader state archive/zip
// allocates per entry; the size and CRC the zip directory declares are
// checked as archive/zip would.
func (e *entry) read() ([]byte, error) {
	if e.zf == nil {
		return os.ReadFile(e.file)
	}
	if !e.fastPath() {
		return e.readThroughArchive()
	}
	raw, err := e.stored()
	if err != nil {
		return nil, err
	}
	defer putBuffer(raw)
	return e.contents(raw)
}

// fastPath reports whether stored and contents can read a jar entry
// themselves; other compression methods, and an entry whose directory
// record has no CRC, are left to archive/zip.
func (e *entry) fastPath() bool {
	m := e.zf.Method
	return (m == zip.Deflate || m == zip.Store) && (e.zf.CRC32 != 0 || e.zf.UncompressedSize64 == 0)
}

// stored returns what the entry holds as stored: a jar entry's compressed
// bytes, a file's bytes. Jar entries come in a buffer from getBuffer.
func (e *entry) stored() ([]byte, error) {
	if e.zf == nil {
		return os.ReadFile(e.file)
	}
	return e.rawBytes()
}

// contents returns a jar entry's uncompressed bytes, given its stored
// bytes, in a new buffer from getBuffer, after checking their size. A CRC
// that does not match is not an error: java.util.zip.ZipFile, which the
// class loader reads jars with, never checks it, and packers write wrong
// ones on purpose; the entry is marked (markCRCWrong) for a warning.
func (e *entry) contents(raw []byte) ([]byte, error) {
	if !e.fastPath() {
		return e.readThroughArchive()
	}
	size := e.zf.UncompressedSize64
	if size > maxEntrySize {
		return nil, fmt.Errorf("entry declares %d bytes uncompressed, more than %d", size, maxEntrySize)
	}
	if e.zf.Method == zip.Deflate && size > uint64(len(raw))*maxDeflateRatio+64 {
		// Refused before the buffer is made: a few damaged bytes must not
		// cost a gigabyte.
		return nil, fmt.Errorf("entry declares %d bytes uncompressed from %d compressed, more than deflate can produce", size, len(raw))
	}
	buf := getBuffer(int(size))
	if e.zf.Method == zip.Store {
		if len(raw) != len(buf) {
			putBuffer(buf)
			return nil, fmt.Errorf("stored entry has %d bytes, its header declares %d", len(raw), size)
		}
		copy(buf, raw)
	} else if err := inflateInto(buf, raw); err != nil {
		putBuffer(buf)
		return nil, err
	}
	if crc32.ChecksumIEEE(buf) != e.zf.CRC32 {
		e.markCRCWrong()
	}
	return buf, nil
}

// rawBytes returns the entry's stored (compressed) bytes in a buffer from
// getBuffer.
func (e *entry) rawBytes() ([]byte, error) {
	if e.zf.CompressedSize64 > maxEntrySize {
		return nil, fmt.Errorf("entry declares %d bytes compressed, more than %d", e.zf.CompressedSize64, maxEntrySize)
	}
	r, err := e.zf.OpenRaw()
	if err != nil {
		return nil, err
	}
	raw := getBuffer(int(e.zf.CompressedSize64))
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
		putBuffer(raw)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("its %d bytes of compressed data run past the end of the jar", e.zf.CompressedSize64)
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
func (e *entry) readThroughArchive() ([]byte, error) {
	if size := e.zf.UncompressedSize64; size > maxEntrySize {
		return nil, fmt.Errorf("entry declares %d bytes uncompressed, more than %d", size, maxEntrySize)
	}
	rc, err := e.zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	buf := getBuffer(int(e.zf.UncompressedSize64))
	if _, err := io.ReadFull(rc, buf); err != nil {
		putBuffer(buf)
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
		putBuffer(buf)
		if err == nil || err == io.EOF {
			err = fmt.Errorf("entry is longer than its declared %d bytes", len(buf))
		}
		return nil, err
	}
	return buf, nil
}

// openInput opens a jar and reads its directory, or lists a directory
// (files sorted by path, so the order never depends on the file system).
func openInput(path string) (*input, error) {
	in, err := openUnlisted(path)
	if err != nil {
		return nil, err
	}
	if err := in.list(); err != nil {
		in.close()
		return nil, err
	}
	return in, nil
}

// openUnlisted opens a jar without reading its directory yet (a run that
// finds a jar unchanged in the cache never needs it), or lists a
// directory.
func openUnlisted(path string) (*input, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	in := &input{path: path, isDir: st.IsDir()}
	if in.isDir {
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
			in.entries = append(in.entries, entry{name: filepath.ToSlash(rel), file: p, mode: info.Mode()})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		sort.Slice(in.entries, func(i, j int) bool { return in.entries[i].name < in.entries[j].name })
		in.listed = true
		return in, nil
	}
	if in.jar, err = openFileReader(path, false); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return in, nil
}

// list reads a jar's directory into its entries, once.
func (in *input) list() error {
	if in.listed {
		return nil
	}
	zr, err := in.readDirectory()
	if err != nil {
		return fmt.Errorf("%s: not a readable jar: %w", in.path, err)
	}
	for _, f := range zr.File {
		if !utf8.ValidString(f.Name) {
			// Java's class path reads every name as UTF-8 and refuses the
			// whole jar ("invalid CEN header (bad entry name)").
			return fmt.Errorf("%s: %q: entry name is not UTF-8 (an old CP437 name?), which the JVM refuses", in.path, f.Name)
		}
	}
	in.zr, in.listed = zr, true
	in.entries = make([]entry, 0, len(zr.File))
	for _, f := range zr.File {
		in.entries = append(in.entries, entry{name: f.Name, zf: f})
	}
	return nil
}

func (in *input) readDirectory() (*zip.Reader, error) {
	zr, err := zip.NewReader(in.jar, in.jar.size)
	if err != nil {
		return nil, err
	}
	zr.RegisterDecompressor(zip.Deflate, newInflater)
	return zr, nil
}

func (in *input) close() {
	if in.jar != nil {
		in.jar.Close()
		in.jar = nil
	}
	in.drop()
}

// drop lets go of a jar's zip directory, a few hundred bytes per entry
// (25 MB for the lab corpus), between the scan and the write of its
// output and after it; the entry names stay. The jar stays open, so load
// reads the directory of the same file again. Entries cannot be read
// while dropped.
func (in *input) drop() {
	if in.isDir {
		return
	}
	in.zr = nil
	for j := range in.entries {
		in.entries[j].zf = nil
	}
}

// load reads a dropped jar's directory again, which must list the
// entries the scan saw.
func (in *input) load() error {
	if in.isDir || in.zr != nil {
		return nil
	}
	if in.jar == nil {
		return fmt.Errorf("%s: internal error: jar read after it was closed", in.path)
	}
	zr, err := in.readDirectory()
	if err != nil {
		return fmt.Errorf("%s: %w", in.path, err)
	}
	if len(zr.File) != len(in.entries) {
		return fmt.Errorf("%s: jar changed while being instrumented (%d entries, then %d)", in.path, len(in.entries), len(zr.File))
	}
	for j, f := range zr.File {
		if f.Name != in.entries[j].name {
			return fmt.Errorf("%s: jar changed while being instrumented (entry %d: %s, then %s)", in.path, j, in.entries[j].name, f.Name)
		}
		in.entries[j].zf = f
	}
	in.zr = zr
	return nil
}

// isSignatureFile reports the files of a jar signature, which rewriting
// invalidates.
func isSignatureFile(name string) bool {
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

// versionedClass reports whether a class entry is a multi-release
// variant (META-INF/versions/N/...), and returns its release number.
func versionedClass(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "META-INF/versions/")
	if !ok {
		return "", false
	}
	n, _, ok := strings.Cut(rest, "/")
	return n, ok
}

func isDirName(name string) bool { return len(name) > 0 && name[len(name)-1] == '/' }
