package methodmap

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
)

// IgnoredMethod is a method left alone and the reason why.
type IgnoredMethod struct {
	Key    MethodKey
	Access uint16
	Reason Reason
}

const ignoreHeader = "ignore methods:"

// EncodeIgnoreMap returns the bytes of ignoreMethodMapping.txt: the line
// "ignore methods:", then "<class> <method> <desc>" per ignored method
// (native methods without descriptor), sorted in byte order, each distinct
// line once.
func EncodeIgnoreMap(ignored []IgnoredMethod) []byte {
	var b bytes.Buffer
	EncodeIgnoreMapTo(&b, ignored) // a bytes.Buffer does not fail
	return b.Bytes()
}

// WriteIgnoreMapFile writes EncodeIgnoreMap(ignored) to path through a
// temporary file and a rename.
func WriteIgnoreMapFile(path string, ignored []IgnoredMethod) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return EncodeIgnoreMapTo(w, ignored) })
}

// EncodeIgnoreMapTo writes what EncodeIgnoreMap returns.
func EncodeIgnoreMapTo(w io.Writer, ignored []IgnoredMethod) error {
	return EncodeIgnoredTo(w, len(ignored), func(i int) IgnoredMethod { return ignored[i] })
}

// EncodeIgnoredTo writes the ignore map of n methods, the i-th given by at
// (a caller's own records need not be copied into a list). Input in key
// order (the pipeline's) is nearly always in line order already, and is
// then written a line at a time. Otherwise the lines are laid out in one
// buffer and sorted as offsets into it, not as a string each: a large
// build ignores hundreds of thousands of methods.
func EncodeIgnoredTo(w io.Writer, n int, at func(i int) IgnoredMethod) error {
	if ignoreLinesSorted(n, at) {
		return writeIgnoreLines(w, n, at)
	}
	size := 0
	for i := range n {
		m := at(i)
		size += len(m.Key.Class) + len(m.Key.Name) + len(m.Key.Desc) + 2
	}
	text := make([]byte, 0, size)
	ends := make([]int, n)
	for i := range n {
		m := at(i)
		text = appendMapText(text, m.Key, m.Access)
		ends[i] = len(text)
	}
	line := func(i int) []byte {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		return text[start:ends[i]]
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	cmpLines := func(a, b int) int { return bytes.Compare(line(a), line(b)) }
	slices.SortStableFunc(order, cmpLines)
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(ignoreHeader)
	bw.WriteByte('\n')
	for k, i := range order {
		if k > 0 && bytes.Equal(line(order[k-1]), line(i)) {
			continue
		}
		bw.Write(line(i))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ignoreLinesSorted reports whether the n lines come in line order,
// comparing each line with the one before it as it is laid out.
func ignoreLinesSorted(n int, at func(i int) IgnoredMethod) bool {
	var prev, cur []byte
	for i := range n {
		m := at(i)
		cur = appendMapText(cur[:0], m.Key, m.Access)
		if i > 0 && bytes.Compare(prev, cur) > 0 {
			return false
		}
		prev, cur = cur, prev
	}
	return true
}

// writeIgnoreLines writes the ignore map of lines already in line order,
// a line at a time: the whole text of a large build's list is tens of MB
// that need not be held.
func writeIgnoreLines(w io.Writer, n int, at func(i int) IgnoredMethod) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(ignoreHeader)
	bw.WriteByte('\n')
	var prev, cur []byte
	for i := range n {
		m := at(i)
		cur = appendMapText(cur[:0], m.Key, m.Access)
		if i > 0 && bytes.Equal(prev, cur) {
			continue
		}
		bw.Write(cur)
		bw.WriteByte('\n')
		prev, cur = cur, prev
	}
	return bw.Flush()
}

// ReadIgnoreMapFile reads an ignoreMethodMapping.txt.
func ReadIgnoreMapFile(path string) ([]MethodKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseIgnoreMap(f, path)
}

// ParseIgnoreMap reads ignore-map lines. The file has no access flags, so a
// line without a trailing "(...)" field is taken as a native method (empty
// Desc).
func ParseIgnoreMap(r io.Reader, name string) ([]MethodKey, error) {
	var keys []MethodKey
	var bad error
	sawHeader := false
	err := eachLine(r, name, func(n int, line string) bool {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			return true
		case !sawHeader:
			if line != ignoreHeader {
				bad = fmt.Errorf("%s: line %d: want %q as the first line, got %q", name, n, ignoreHeader, line)
				return false
			}
			sawHeader = true
			return true
		}
		k, err := parseMember(line, accNative) // native: the descriptor is optional here
		if err != nil {
			bad = fmt.Errorf("%s: line %d: %w", name, n, err)
			return false
		}
		keys = append(keys, k)
		return true
	})
	if err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, bad
	}
	if !sawHeader {
		return nil, fmt.Errorf("%s: missing the %q line", name, ignoreHeader)
	}
	return keys, nil
}
