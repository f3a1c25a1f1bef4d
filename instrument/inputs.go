package instrument

import (
	"archive/zip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/klauspost/compress/flate"
)

// input is one jar or class directory given on the command line.
type input struct {
	path    string
	isDir   bool
	zr      *zip.ReadCloser // jars
	entries []entry
}

// entry is one file of an input: a zip entry or a file under a directory.
type entry struct {
	name string    // slash-separated path inside the input
	zf   *zip.File // jars
	file string    // directories: absolute path
	mode fs.FileMode
}

func (e *entry) isClass() bool { return strings.HasSuffix(e.name, ".class") }

// maxEntrySize bounds what one entry may inflate to, so a corrupt or
// hostile size field cannot make us allocate without limit.
const maxEntrySize = 1 << 30

// read returns the entry's uncompressed bytes, read straight into one
// buffer of the size the zip directory declares (archive/zip checks that
// size and the CRC at the end of the stream).
func (e *entry) read() ([]byte, error) {
	if e.zf == nil {
		return os.ReadFile(e.file)
	}
	size := e.zf.UncompressedSize64
	if size > maxEntrySize {
		return nil, fmt.Errorf("entry declares %d bytes uncompressed, more than %d", size, maxEntrySize)
	}
	rc, err := e.zf.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	buf := make([]byte, size)
	if _, err := io.ReadFull(rc, buf); err != nil {
		return nil, err
	}
	// Reading on to EOF makes archive/zip verify the size and CRC.
	var probe [1]byte
	if n, err := rc.Read(probe[:]); n != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			err = fmt.Errorf("entry is longer than its declared %d bytes", size)
		}
		return nil, err
	}
	return buf, nil
}

// openInput opens a jar or lists a directory (files sorted by path, so
// the order never depends on the file system).
func openInput(path string) (*input, error) {
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
		return in, nil
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable jar: %w", path, err)
	}
	in.zr = zr
	zr.RegisterDecompressor(zip.Deflate, newInflater)
	in.entries = make([]entry, 0, len(zr.File))
	for _, f := range zr.File {
		in.entries = append(in.entries, entry{name: f.Name, zf: f})
	}
	return in, nil
}

func (in *input) close() {
	if in.zr != nil {
		in.zr.Close()
	}
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

// inflaters reuses decompressor state across entries.
var inflaters sync.Pool

// newInflater is the zip decompressor: klauspost/compress's inflate, which
// is faster than compress/flate, with its state pooled.
func newInflater(r io.Reader) io.ReadCloser {
	if f, ok := inflaters.Get().(io.ReadCloser); ok {
		if err := f.(flate.Resetter).Reset(r, nil); err == nil {
			return &pooledInflater{f}
		}
	}
	return &pooledInflater{flate.NewReader(r)}
}

type pooledInflater struct{ io.ReadCloser }

func (p *pooledInflater) Close() error {
	err := p.ReadCloser.Close()
	inflaters.Put(p.ReadCloser)
	p.ReadCloser = nil
	return err
}
