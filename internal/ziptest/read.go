package ziptest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"unicode/utf8"
)

// Read is one entry as java.util.zip.ZipFile gives it to a class loader.
type Read struct {
	Name        string
	Body        []byte
	DeclaredCRC uint32 // what the central directory declares
}

// ReadLikeJava reads every entry of a zip, in directory order, as
// java.util.zip.ZipFile does: from the central directory, each entry's
// stored bytes, inflated where deflated. It does not check CRCs (ZipFile
// never does, and packers write wrong ones on purpose), which archive/zip's
// reader refuses to skip. Sizes it checks as tracebeat's rule does, which
// is stricter than Java's class loader (that reads the declared number of
// bytes and ignores the rest, and stops reading compressed bytes where
// the stream ends): an entry must hold exactly the size the directory
// declares, and all the compressed bytes it declares must be in the file. Entries of another compression method are an error,
// as they are to Java.
func ReadLikeJava(data []byte) ([]Read, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	out := make([]Read, 0, len(zr.File))
	for _, f := range zr.File {
		if !utf8.ValidString(f.Name) {
			// ZipFile decodes names as UTF-8 and refuses the whole jar
			// ("invalid CEN header (bad entry name)").
			return nil, fmt.Errorf("%q: entry name is not UTF-8", f.Name)
		}
		body, err := readEntry(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		out = append(out, Read{Name: f.Name, Body: body, DeclaredCRC: f.CRC32})
	}
	return out, nil
}

// maxRead bounds what one entry may inflate to here, so a damaged size
// cannot make a test allocate without limit.
const maxRead = 64 << 20

func readEntry(f *zip.File) ([]byte, error) {
	raw, err := f.OpenRaw()
	if err != nil {
		return nil, err
	}
	size := f.UncompressedSize64
	if size > maxRead || f.CompressedSize64 > maxRead {
		return nil, fmt.Errorf("declares %d bytes (%d compressed)", size, f.CompressedSize64)
	}
	stored := make([]byte, f.CompressedSize64)
	if _, err := io.ReadFull(raw, stored); err != nil {
		return nil, fmt.Errorf("compressed bytes past the end of the file: %w", err)
	}
	var r io.Reader
	switch f.Method {
	case zip.Store:
		if f.CompressedSize64 != size {
			return nil, fmt.Errorf("stored entry of %d bytes declares %d", f.CompressedSize64, size)
		}
		r = bytes.NewReader(stored)
	case zip.Deflate:
		fr := flate.NewReader(bytes.NewReader(stored))
		defer fr.Close()
		r = fr
	default:
		return nil, fmt.Errorf("compression method %d", f.Method)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	var probe [1]byte
	if n, err := r.Read(probe[:]); n != 0 || err != io.EOF {
		return nil, fmt.Errorf("holds more than its declared %d bytes (%v)", size, err)
	}
	return body, nil
}
