package decode

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tracebeat/tracebeat/methodmap"
)

// Method is one line of a Matrix methodMapping.txt:
// "<id>,<access>,<class> <method> <descriptor>" with dotted names.
type Method struct {
	ID     int
	Access int
	Class  string // dotted, e.g. "com.example.Foo$1"
	Name   string // method name, e.g. "run" or "<init>"
	Desc   string // dotted descriptor, e.g. "(Ljava.lang.String;)V"; empty for native methods

	display string // DisplayName, built once when the map is read
}

// DisplayName is "class.method(desc)", the name shown in every output.
func (m Method) DisplayName() string {
	if m.display != "" {
		return m.display
	}
	return m.Class + "." + m.Name + m.Desc
}

// MethodNames maps method ids to names. A nil *MethodNames knows no id, so
// callers can decode without a map and still see every id (flagged unknown).
//
// The methodmap package owns the format (ids, checks, reading, writing);
// this is the names-only view decode needs.
type MethodNames struct {
	byID map[int]Method
}

// UnknownName is how an id missing from the map is shown: flagged, never dropped.
func UnknownName(id int) string {
	return "<unknown id " + strconv.Itoa(id) + ">"
}

// LoadMethodNames reads a methodMapping.txt file.
func LoadMethodNames(path string) (*MethodNames, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadMethodNames(f, path)
}

// ReadMethodNames reads methodMapping.txt content with methodmap's
// parser (the one reader of the format); source names the input in
// errors. An id given twice is an error: a name must be unambiguous.
func ReadMethodNames(r io.Reader, source string) (*MethodNames, error) {
	m, err := methodmap.ParseMap(r, source)
	if err != nil {
		return nil, err
	}
	names := &MethodNames{byID: make(map[int]Method, len(m.Entries))}
	firstLine := make(map[int]int, len(m.Entries))
	for _, e := range m.Entries {
		if prev, dup := firstLine[e.ID]; dup {
			return nil, fmt.Errorf("%s: line %d: method id %d already defined at line %d", source, e.Line, e.ID, prev)
		}
		firstLine[e.ID] = e.Line
		m := Method{ID: e.ID, Access: int(e.Access), Class: dotted(e.Key.Class), Name: e.Key.Name, Desc: dotted(e.Key.Desc)}
		m.display = m.DisplayName() // once here rather than per record decoded
		names.byID[e.ID] = m
	}
	return names, nil
}

// dotted is the map file's form of an internal name or descriptor.
func dotted(s string) string { return strings.ReplaceAll(s, "/", ".") }

// Lookup returns the method with the given id.
func (n *MethodNames) Lookup(id int) (Method, bool) {
	if n == nil {
		return Method{}, false
	}
	m, ok := n.byID[id]
	return m, ok
}

// Name is the display name of id, or UnknownName(id) when the map lacks it.
func (n *MethodNames) Name(id int) string {
	if m, ok := n.Lookup(id); ok {
		return m.DisplayName()
	}
	return UnknownName(id)
}

// Len is the number of methods in the map.
func (n *MethodNames) Len() int {
	if n == nil {
		return 0
	}
	return len(n.byID)
}
