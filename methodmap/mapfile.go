package methodmap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tracebeat/tracebeat/internal/atomicfile"
)

// Entry is one line of methodMapping.txt.
type Entry struct {
	ID     int
	Access uint16
	Key    MethodKey // internal form; Desc is "" for a native method read from a file
	Line   int       // 1-based line in the file it was read from; 0 when built in memory
}

// Map is the content of a methodMapping.txt.
type Map struct {
	// Entries in file order when read, sorted by id when built by Assign.
	Entries []Entry
	// HighWater is the highest id ever assigned in the history of this map,
	// so that the id of a removed method is not handed out again in a later
	// build. It is written as the comment line "# tracebeat: highest-id=N"
	// only when it exceeds every id in the map (a method with the top id was
	// removed); Matrix's base-map reader skips "#" lines.
	HighWater int
}

// IDs returns the id of every entry, keyed by Entry.Key, for the
// instrumenter's lookups. The dispatch entry is included.
func (m *Map) IDs() map[MethodKey]int {
	ids := make(map[MethodKey]int, len(m.Entries))
	for _, e := range m.Entries {
		if _, dup := ids[e.Key]; !dup {
			ids[e.Key] = e.ID
		}
	}
	return ids
}

const highWaterPrefix = "# tracebeat: highest-id="

// ReadMapFile reads a methodMapping.txt (or a base map) and stops at the
// first syntax error. It does not check ids for duplicates or range; see
// ValidateMap.
func ReadMapFile(path string) (*Map, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseMap(f, path)
}

// ParseMap reads map lines from r; name is used in error messages.
// Tolerated: '#' comment lines (indented too), blank lines, trailing
// blanks, CRLF line ends, a UTF-8 BOM.
func ParseMap(r io.Reader, name string) (*Map, error) {
	var first error
	m, err := parseMap(r, name, func(line int, err error) bool {
		first = fmt.Errorf("%s: line %d: %w", name, line, err)
		return false
	})
	if err != nil {
		return nil, err
	}
	if first != nil {
		return nil, first
	}
	return m, nil
}

// parseMap calls bad for every malformed line and stops when it returns
// false. The returned error is only an I/O error.
func parseMap(r io.Reader, name string, bad func(line int, err error) bool) (*Map, error) {
	m := &Map{}
	err := eachLine(r, name, func(n int, line string) bool {
		if line == "" {
			return true
		}
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
			if rest, ok := strings.CutPrefix(line, highWaterPrefix); ok {
				v, err := parseDecimal(rest, "highest-id", MaxID)
				if err != nil {
					return bad(n, err)
				}
				m.HighWater = max(m.HighWater, v)
			}
			return true
		}
		e, err := parseMapLine(line)
		if err != nil {
			return bad(n, err)
		}
		e.Line = n
		m.Entries = append(m.Entries, e)
		return true
	})
	return m, err
}

// eachLine feeds f every line without its line end and trailing blanks.
func eachLine(r io.Reader, name string, f func(n int, line string) bool) error {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: %w", name, err)
		}
		if line == "" && err != nil {
			return nil
		}
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if !f(n, strings.TrimRight(line, " \t\r\n")) {
			return nil
		}
		if err != nil {
			return nil
		}
	}
}

// parseMapLine parses "<id>,<access>,<class> <method>[ <desc>]".
func parseMapLine(line string) (Entry, error) {
	idText, rest, ok1 := strings.Cut(line, ",")
	accText, member, ok2 := strings.Cut(rest, ",")
	if !ok1 || !ok2 {
		if !utf8.ValidString(line) || strings.ContainsRune(line, 0) {
			return Entry{}, fmt.Errorf("not text (a trace, a jar? a methodMapping.txt holds <id>,<access>,<class> <method> <descriptor> lines)")
		}
		if len(line) > 80 {
			line = line[:77] + "..."
		}
		return Entry{}, fmt.Errorf("want <id>,<access>,<class> <method> <descriptor>, got %q", line)
	}
	id, err := parseDecimal(idText, "id", 1<<31-1)
	if err != nil {
		return Entry{}, err
	}
	access, err := parseDecimal(accText, "access flags", 0xFFFF)
	if err != nil {
		return Entry{}, err
	}
	key, err := parseMember(member, uint16(access))
	if err != nil {
		return Entry{}, err
	}
	// A native method's line is written without its descriptor, and maps
	// are matched by that line key: one read with a descriptor is the
	// same method (found by FuzzParseMap: written back, it read as
	// another key).
	return Entry{ID: id, Access: uint16(access), Key: lineKey(key, uint16(access))}, nil
}

// parseMember parses "<class> <method>[ <desc>]" (dotted). The descriptor is
// the last space-separated field when it starts with '('; only native
// methods may omit it.
func parseMember(s string, access uint16) (MethodKey, error) {
	class, rest, ok := strings.Cut(s, " ")
	if !ok || class == "" || rest == "" {
		return MethodKey{}, fmt.Errorf("want <class> <method> <descriptor>, got %q", s)
	}
	name, desc := rest, ""
	if i := strings.LastIndexByte(rest, ' '); i >= 0 && strings.HasPrefix(rest[i+1:], "(") {
		name, desc = rest[:i], rest[i+1:]
	}
	switch {
	case name == "":
		return MethodKey{}, fmt.Errorf("empty method name in %q", s)
	case strings.TrimSpace(name) != name:
		// Lines are read without their trailing blanks: such a name would
		// not read back as itself (found by FuzzParseMap).
		return MethodKey{}, fmt.Errorf("method name %q in %q begins or ends with a blank", name, s)
	case ambiguousName(name):
		// "a.B f (x" with its descriptor left out (a native method)
		// would read back as the method f with descriptor "(x" (found by
		// FuzzParseMap).
		return MethodKey{}, fmt.Errorf("method name %q in %q has a blank followed by '(': it cannot be told from a descriptor", name, s)
	case desc == "" && access&accNative == 0:
		return MethodKey{}, fmt.Errorf("missing descriptor in %q (only native methods omit it)", s)
	case desc != "" && !strings.Contains(desc, ")"):
		return MethodKey{}, fmt.Errorf("bad descriptor %q", desc)
	}
	return MethodKey{Class: slashed(class), Name: name, Desc: slashed(desc)}, nil
}

// ambiguousName reports whether a method name, written before a
// descriptor or without one, would read back split in two.
func ambiguousName(name string) bool {
	i := strings.LastIndexByte(name, ' ')
	return i >= 0 && strings.HasPrefix(name[i+1:], "(")
}

// parseDecimal accepts plain decimal digits only (no sign, no blanks).
func parseDecimal(s, what string, limit int) (int, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("%s %q is not a decimal number", what, s)
	}
	v, err := strconv.Atoi(s)
	if err != nil || v > limit {
		return 0, fmt.Errorf("%s %s is too large (max %d)", what, s, limit)
	}
	return v, nil
}

// EncodeMap returns the bytes of methodMapping.txt: one line per entry,
// "<id>,<access>,<class> <method> <desc>", sorted by id, native methods
// without descriptor, the dispatch entry added when missing. An invalid map
// (ids out of range or twice, a method twice) is refused.
func EncodeMap(m *Map) ([]byte, error) {
	var b bytes.Buffer
	if err := EncodeMapTo(&b, m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// EncodeMapTo writes the map's lines to w (EncodeMap, streamed). Maps built by Assign are already
// sorted with the dispatch entry present, and are written without a copy.
func EncodeMapTo(w io.Writer, m *Map) error {
	entries := m.Entries
	hasDispatch := slices.ContainsFunc(entries, func(e Entry) bool { return e.ID == DispatchID })
	byID := func(a, b Entry) int { return a.ID - b.ID }
	if !hasDispatch || !slices.IsSortedFunc(entries, byID) {
		entries = slices.Clone(entries)
		if !hasDispatch {
			entries = append(entries, DispatchEntry())
		}
		slices.SortFunc(entries, byID)
	}
	return EncodeEntriesTo(w, m.HighWater, len(entries), func(i int) Entry { return entries[i] })
}

// EncodeEntriesTo writes the lines of a map of n entries, which at gives
// in id order with the dispatch entry last, and high-water mark
// highWater: EncodeMapTo for a caller that keeps its entries in another
// form (the pipeline's scans: a line is 72 bytes as an Entry, and a large
// app has a million).
func EncodeEntriesTo(w io.Writer, highWater, n int, at func(i int) Entry) error {
	maxEntry := 0
	for i := range n {
		if e := at(i); e.ID != DispatchID {
			maxEntry = max(maxEntry, e.ID)
		}
	}
	// The map is checked while its text is written: what was written is
	// only the caller's (a temporary file, a buffer) until this returns
	// nil.
	invalid := make(chan error, 1)
	go func() {
		o := validateOptions{maxID: MaxID, requireDispatch: true, requireSorted: true}
		if bad, _ := validateAt(n, at, "map", o); len(bad) > 0 {
			invalid <- fmt.Errorf("refusing to write an invalid map: %s", bad[0].Msg)
		}
		close(invalid)
	}()
	if err := writeMapLines(w, highWater, maxEntry, n, at); err != nil {
		<-invalid
		return err
	}
	return <-invalid
}

// writeMapLines writes the high-water line, when needed, and one line per
// entry.
func writeMapLines(w io.Writer, highWater, maxEntry, n int, at func(i int) Entry) error {
	bw := bufio.NewWriterSize(w, 64*1024)
	if highWater > maxEntry {
		fmt.Fprintf(bw, "%s%d\n", highWaterPrefix, highWater)
	}
	var num []byte
	for i := range n {
		e := at(i)
		num = strconv.AppendInt(num[:0], int64(e.ID), 10)
		num = append(num, ',')
		num = strconv.AppendInt(num, int64(e.Access), 10)
		num = append(num, ',')
		num = appendMapText(num, e.Key, e.Access)
		num = append(num, '\n')
		bw.Write(num)
	}
	return bw.Flush()
}

// WriteMapFile writes EncodeMap(m) to path through a temporary file in the
// same directory and a rename.
func WriteMapFile(path string, m *Map) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return EncodeMapTo(w, m) })
}
