package decode

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Method is one line of a Matrix methodMapping.txt:
// "<id>,<access>,<class> <method> <descriptor>" with dotted names.
type Method struct {
	ID     int
	Access int
	Class  string // dotted, e.g. "com.example.Foo$1"
	Name   string // method name, e.g. "run" or "<init>"
	Desc   string // dotted descriptor, e.g. "(Ljava.lang.String;)V"; empty for native methods
}

// DisplayName is "class.method(desc)", the name shown in every output.
func (m Method) DisplayName() string {
	return m.Class + "." + m.Name + m.Desc
}

// MethodNames maps method ids to names. A nil *MethodNames knows no id, so
// callers can decode without a map and still see every id (flagged unknown).
//
// This is deliberately a small, names-only reader; the methodmap package owns
// the full map model (ids, checks, writing).
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

// ReadMethodNames parses methodMapping.txt content. Lines starting with '#'
// and blank lines are skipped; source names the input in errors.
func ReadMethodNames(r io.Reader, source string) (*MethodNames, error) {
	names := &MethodNames{byID: map[int]Method{}}
	firstLine := map[int]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimRight(sc.Text(), "\r")
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		m, err := parseMethodLine(trimmed)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", source, lineNo, err)
		}
		if prev, dup := firstLine[m.ID]; dup {
			return nil, fmt.Errorf("%s: line %d: method id %d already defined at line %d", source, lineNo, m.ID, prev)
		}
		firstLine[m.ID] = lineNo
		names.byID[m.ID] = m
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", source, lineNo+1, err)
	}
	return names, nil
}

func parseMethodLine(line string) (Method, error) {
	idText, rest, ok := strings.Cut(line, ",")
	if !ok {
		return Method{}, errors.New(`expected "<id>,<access>,<class> <method> <descriptor>"`)
	}
	accessText, signature, ok := strings.Cut(rest, ",")
	if !ok {
		return Method{}, errors.New(`expected "<id>,<access>,<class> <method> <descriptor>"`)
	}
	id, err := strconv.Atoi(strings.TrimSpace(idText))
	if err != nil || id < 0 {
		return Method{}, fmt.Errorf("method id %q is not a non-negative integer", idText)
	}
	access, err := strconv.Atoi(strings.TrimSpace(accessText))
	if err != nil {
		return Method{}, fmt.Errorf("access flags %q are not an integer", accessText)
	}
	fields := strings.Fields(signature)
	if len(fields) < 2 || len(fields) > 3 {
		return Method{}, fmt.Errorf("method %q: expected \"<class> <method> [<descriptor>]\"", signature)
	}
	m := Method{ID: id, Access: access, Class: fields[0], Name: fields[1]}
	if len(fields) == 3 {
		if !strings.HasPrefix(fields[2], "(") {
			return Method{}, fmt.Errorf("descriptor %q does not start with '('", fields[2])
		}
		m.Desc = fields[2]
	}
	return m, nil
}

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
