package ziptest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
)

// Read is one entry as java.util.zip.ZipFile gives it to a class loader.
type Read struct {
	Name        string
	Body        []byte
	DeclaredCRC uint32 // what the central directory declares
}

// ReadLikeJava reads every entry of a zip, in directory order, as
// java.util.zip.ZipFile does: from the central directory, each entry's
// stored bytes, inflated where deflated, to the size the directory
// declares. It does not check CRCs (ZipFile never does, and packers write
// wrong ones on purpose), which archive/zip's reader refuses to skip.
// Entries of another compression method are an error, as they are to
// Java.
func ReadLikeJava(data []byte) ([]Read, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	out := make([]Read, 0, len(zr.File))
	for _, f := range zr.File {
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
	if size > maxRead {
		return nil, fmt.Errorf("declares %d bytes", size)
	}
	var r io.Reader
	switch f.Method {
	case zip.Store:
		r = raw
	case zip.Deflate:
		fr := flate.NewReader(raw)
		defer fr.Close()
		r = fr
	default:
		return nil, fmt.Errorf("compression method %d", f.Method)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}
