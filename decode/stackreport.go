package decode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// ReadStackReports parses Matrix stack reports: either plain
// "depth,methodId,count,cost" lines (stacks separated by blank lines, '#'
// lines ignored) or JSON holding issues with a "stack" string of such lines
// and an optional "stackKey" ("id|id|"). JSON may be one value, several
// concatenated values or JSON lines; issues are found at any nesting level.
func ReadStackReports(r io.Reader, source string) ([]Stack, error) {
	br := bufio.NewReader(r)
	first, blankLines, err := skipSpace(br)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if first == '{' || first == '[' {
		return readStackJSON(br, source)
	}
	return readStackLines(br, source, blankLines)
}

// skipSpace drops a UTF-8 byte-order mark and the white space after it,
// and returns the first other byte, left unread, and how many lines
// ended in what was dropped. (Dropped, not peeked at: leading blanks can
// be longer than any buffer.)
func skipSpace(br *bufio.Reader) (first byte, lines int, err error) {
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	for {
		c, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			return 0, lines, errors.New("empty input")
		}
		if err != nil {
			return 0, lines, err
		}
		switch c {
		case '\n':
			lines++
		case ' ', '\t', '\r':
		default:
			return c, lines, br.UnreadByte()
		}
	}
}

// readStackLines reads stack lines from r, whose first line is line
// lineNo+1 of the input.
func readStackLines(r io.Reader, source string, lineNo int) ([]Stack, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var stacks []Stack
	var cur []StackLine
	flush := func() {
		if len(cur) > 0 {
			stacks = append(stacks, Stack{Lines: cur, Key: KeyMethods(cur)})
			cur = nil
		}
	}
	for first := lineNo + 1; sc.Scan(); {
		lineNo++
		text := strings.TrimSpace(sc.Text())
		if lineNo == first {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		switch {
		case text == "":
			flush()
			continue
		case strings.HasPrefix(text, "#"):
			continue
		}
		l, err := ParseStackLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", source, lineNo, err)
		}
		cur = append(cur, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", source, lineNo+1, err)
	}
	flush()
	if len(stacks) == 0 {
		return nil, fmt.Errorf("%s: no stack lines", source)
	}
	return stacks, nil
}

// ParseStackLine parses "depth,methodId,count,cost".
func ParseStackLine(text string) (StackLine, error) {
	parts := strings.Split(text, ",")
	if len(parts) != 4 {
		return StackLine{}, fmt.Errorf("%q: expected depth,methodId,count,cost", text)
	}
	var v [4]int64
	names := [4]string{"depth", "method id", "count", "cost"}
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || n < 0 {
			return StackLine{}, fmt.Errorf("%q: %s %q is not a non-negative integer", text, names[i], p)
		}
		v[i] = n
	}
	if v[0] > 1<<20 || v[1] > 1<<31-1 || v[2] > 1<<31-1 {
		return StackLine{}, fmt.Errorf("%q: value out of range", text)
	}
	return StackLine{Depth: int(v[0]), MethodID: int(v[1]), Count: int(v[2]), Cost: v[3]}, nil
}

func readStackJSON(r io.Reader, source string) ([]Stack, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var stacks []Stack
	for value := 1; ; value++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			var syntax *json.SyntaxError
			if value == 1 && errors.As(err, &syntax) {
				// It only started like JSON (a Markdown link, a list).
				return nil, fmt.Errorf("%s: %w", source, notATrace("starts like JSON, but is not: %v", err))
			}
			return nil, fmt.Errorf("%s: JSON value %d: %w", source, value, err)
		}
		var err error
		stacks, err = collectIssues(v, stacks, source)
		if err != nil {
			return nil, err
		}
	}
	if len(stacks) == 0 {
		return nil, fmt.Errorf("%s: %w", source, notATrace("JSON, but no object with a Matrix \"stack\" string"))
	}
	return stacks, nil
}

// reportFieldMax: report fields shown next to a stack are short scalars;
// long ones (thread dumps) would drown the tree.
const reportFieldMax = 120

func collectIssues(v any, stacks []Stack, source string) ([]Stack, error) {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			var err error
			if stacks, err = collectIssues(e, stacks, source); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		stackText, ok := t["stack"].(string)
		if !ok {
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			slices.Sort(keys) // deterministic order of nested issues
			for _, k := range keys {
				var err error
				if stacks, err = collectIssues(t[k], stacks, source); err != nil {
					return nil, err
				}
			}
			return stacks, nil
		}
		issue := len(stacks) + 1
		var lines []StackLine
		for i, text := range strings.Split(stackText, "\n") {
			text = strings.TrimSpace(text)
			if text == "" {
				continue
			}
			l, err := ParseStackLine(text)
			if err != nil {
				return nil, fmt.Errorf("%s: issue %d: stack line %d: %w", source, issue, i+1, err)
			}
			lines = append(lines, l)
		}
		s := Stack{Lines: lines, Report: map[string]string{}}
		if keyText, ok := t["stackKey"].(string); ok && strings.Trim(keyText, "| ") != "" {
			for _, p := range strings.Split(keyText, "|") {
				p = strings.TrimSpace(p)
				if p == "" {
					continue
				}
				id, err := strconv.Atoi(p)
				if err != nil {
					return nil, fmt.Errorf("%s: issue %d: stackKey %q: %q is not a method id", source, issue, keyText, p)
				}
				s.Key = append(s.Key, id)
			}
		} else {
			s.Key = KeyMethods(lines)
		}
		for k, fv := range t {
			if k == "stack" || k == "stackKey" {
				continue
			}
			var text string
			switch x := fv.(type) {
			case string:
				text = x
			case json.Number:
				text = x.String()
			case bool:
				text = strconv.FormatBool(x)
			default:
				continue
			}
			if len(text) <= reportFieldMax && !strings.ContainsAny(text, "\n") {
				s.Report[k] = text
			}
		}
		stacks = append(stacks, s)
	}
	return stacks, nil
}
