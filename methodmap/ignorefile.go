package methodmap

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
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
	lines := make([]string, 0, len(ignored))
	for _, m := range ignored {
		lines = append(lines, mapText(m.Key, m.Access))
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	var b bytes.Buffer
	b.WriteString(ignoreHeader)
	b.WriteByte('\n')
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// WriteIgnoreMapFile writes EncodeIgnoreMap(ignored) to path through a
// temporary file and a rename.
func WriteIgnoreMapFile(path string, ignored []IgnoredMethod) error {
	return writeFileAtomic(path, EncodeIgnoreMap(ignored))
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
