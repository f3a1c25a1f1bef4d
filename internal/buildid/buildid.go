// Package buildid reads the build ID the Go linker stamps into a binary:
// "actionID/.../contentID", where the content ID hashes the linked output,
// so two binaries with one ID hold the same code. The go command names
// its own cache entries by it.
package buildid

import (
	"bytes"
	"debug/elf"
	"io"
	"os"
)

// Read returns the Go build ID of the executable at path, or "" when it
// has none (linked with -buildid=, not a Go binary) or cannot be read.
// ELF binaries carry it in the note section .note.go.buildid; Mach-O and
// PE binaries at the start of their text, within the file's first 32 KiB
// (behind the marker "\xff Go build ID: \"").
func Read(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 32<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if bytes.HasPrefix(head, []byte(elf.ELFMAG)) {
		return fromELF(f)
	}
	return fromMarker(head)
}

// fromELF reads the note: name size, descriptor size and type (4 bytes
// each, in the file's byte order), the name "Go" padded to 4 bytes, then
// the ID.
func fromELF(r io.ReaderAt) string {
	ef, err := elf.NewFile(r)
	if err != nil {
		return ""
	}
	sec := ef.Section(".note.go.buildid")
	if sec == nil {
		return ""
	}
	data, err := sec.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	bo := ef.ByteOrder
	nameSize, descSize := bo.Uint32(data[0:]), bo.Uint32(data[4:])
	nameEnd := 12 + (uint64(nameSize)+3)&^3
	if nameSize != 4 || string(data[12:15]) != "Go\x00" || nameEnd+uint64(descSize) > uint64(len(data)) {
		return ""
	}
	return string(data[nameEnd : nameEnd+uint64(descSize)])
}

var marker = []byte("\xff Go build ID: \"")

func fromMarker(head []byte) string {
	i := bytes.Index(head, marker)
	if i < 0 {
		return ""
	}
	rest := head[i+len(marker):]
	end := bytes.IndexByte(rest, '"')
	if end <= 0 {
		return ""
	}
	return string(rest[:end])
}
