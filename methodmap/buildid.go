package methodmap

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/zeebo/xxh3"
)

// BuildID identifies a method map by its lines: the XXH3 of every line
// that is not a comment or blank, each without its line end and trailing
// blanks, as 16 hex digits. Two builds with the same lines have the same
// ids for the same methods, so comments, a BOM and CRLF line ends (a map
// that went through a Windows checkout) do not change it.
type BuildID struct {
	h    *xxh3.Hasher
	line []byte // the part of a line not yet ended
	n    int    // lines read, for the BOM
}

// NewBuildID returns a BuildID to write a map's text to.
func NewBuildID() *BuildID { return &BuildID{h: xxh3.New()} }

// Write takes text of the map, in any pieces.
func (b *BuildID) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			b.line = append(b.line, p...)
			break
		}
		if len(b.line) > 0 {
			b.line = append(b.line, p[:i]...)
			b.add(b.line)
			b.line = b.line[:0]
		} else {
			b.add(p[:i])
		}
		p = p[i+1:]
	}
	return n, nil
}

func (b *BuildID) add(line []byte) {
	if b.n == 0 {
		line = bytes.TrimPrefix(line, []byte("\uFEFF"))
	}
	b.n++
	line = bytes.TrimRight(line, " \t\r")
	if len(line) == 0 || line[0] == '#' || len(bytes.TrimLeft(line, " \t")) > 0 && bytes.TrimLeft(line, " \t")[0] == '#' {
		return
	}
	b.h.Write(line)
	b.h.Write([]byte{'\n'})
}

// String ends the text (a last line without a line end counts) and gives
// the identity.
func (b *BuildID) String() string {
	if len(b.line) > 0 {
		b.add(b.line)
		b.line = nil
	}
	return fmt.Sprintf("%016x", b.h.Sum64())
}

// BuildIDOf is the identity of a map's text.
func BuildIDOf(text []byte) string {
	b := NewBuildID()
	b.Write(text)
	return b.String()
}

// ReadBuildID is the identity of the map file at path.
func ReadBuildID(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b := NewBuildID()
	if _, err := io.Copy(b, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return b.String(), nil
}
