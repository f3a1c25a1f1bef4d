package blacklist

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
)

// ParseError is a line of a block list that could not be understood.
type ParseError struct {
	File   string // name given to Add, or the path given to AddFile
	Line   int    // 1-based
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
}

// AddFile adds the rules of the block list file at path. See Add.
func (l *List) AddFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("blacklist: %w", err)
	}
	defer f.Close()
	return l.Add(f, path)
}

// Add reads a block list from r and adds its rules; name identifies the
// input in errors and in the Origin of the rules. Blank lines, '#'
// comments, '[section]' lines, CRLF ends and spaces around a line are
// accepted, as Matrix accepts them. A line Matrix would skip (an unknown
// directive such as -keepclassmembers, a missing or malformed name, extra
// text) is skipped and kept in Skipped, for the caller to warn about;
// with Strict set it is a *ParseError naming the file and line instead,
// and the list is left unchanged.
func (l *List) Add(r io.Reader, name string) error {
	var rules []Rule
	var skipped []*ParseError
	sc := bufio.NewScanner(r)
	lineNo := 0
	var block *methodBlock // a -blockclassmethods/-traceclassmethods being read
	bad := func(line int, err error) error {
		pe := &ParseError{File: name, Line: line, Reason: err.Error()}
		if l.Strict {
			return pe
		}
		skipped = append(skipped, pe)
		return nil
	}
	// inBlock reads one line (or one piece of a one-line block) of the
	// open method block.
	inBlock := func(line string) error {
		rule, ok, done, err := block.next(line)
		if done {
			block = nil
		}
		if err != nil {
			return bad(lineNo, err)
		}
		if ok {
			rule.Origin = fmt.Sprintf("%s:%d", name, lineNo)
			rules = append(rules, rule)
		}
		return nil
	}
	// inBlockPieces reads the pieces of one line inside the block; text
	// after the '}' that closes it is refused.
	inBlockPieces := func(pieces []string) error {
		for i, piece := range pieces {
			if block == nil {
				return bad(lineNo, fmt.Errorf("unexpected %q after the '}' that ends the block", strings.Join(pieces[i:], " ")))
			}
			if err := inBlock(piece); err != nil {
				return err
			}
		}
		return nil
	}
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if block != nil {
			if err := inBlockPieces(blockPieces(line)); err != nil {
				return err
			}
			continue
		}
		rule, start, ok, err := parseLine(line)
		if err != nil {
			if e := bad(lineNo, err); e != nil {
				return e
			}
			continue
		}
		if start != nil {
			start.line = lineNo
			block = start
			if err := inBlockPieces(start.inline); err != nil {
				return err
			}
			continue
		}
		if ok {
			rule.Origin = fmt.Sprintf("%s:%d", name, lineNo)
			rules = append(rules, rule)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	if block != nil {
		if e := bad(block.line, fmt.Errorf("the block of methods is not closed with '}'")); e != nil {
			return e
		}
	}
	for _, r := range rules {
		l.add(r)
	}
	l.Skipped = append(l.Skipped, skipped...)
	return nil
}

// directives maps each one-line directive to its kind.
var directives = map[string]Kind{
	"-keepclass":             KeepClass,
	"-keeppackage":           KeepPackage,
	"-blockpackage":          BlockPackage,
	"-allowpackage":          AllowPackage,
	"-traceclass":            TraceClass,
	"-tracemethodannotation": TraceMethodAnnotation,
}

// parseLine parses one line; ok is false for lines without a rule, and a
// -blockclassmethods or -traceclassmethods line returns the block whose
// method lines follow.
func parseLine(line string) (rule Rule, block *methodBlock, ok bool, err error) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' || line[0] == '[' {
		return Rule{}, nil, false, nil
	}
	fields := strings.Fields(line)
	directive := fields[0]
	switch directive {
	case "-blockclassmethods", "-traceclassmethods":
		kind := BlockClassMethods
		if directive == "-traceclassmethods" {
			kind = TraceClassMethods
		}
		block, err := parseBlockStart(kind, directive, fields)
		return Rule{}, block, false, err
	}
	kind, known := directives[directive]
	if !known {
		return Rule{}, nil, false, fmt.Errorf("unknown directive %q (want -keepclass, -keeppackage, or btrace's -allowpackage, -blockpackage, -blockclassmethods, -traceclass, -traceclassmethods, -tracemethodannotation)", directive)
	}
	rule.Kind = kind
	if len(fields) < 2 {
		return Rule{}, nil, false, fmt.Errorf("missing name after %s", directive)
	}
	if len(fields) > 2 {
		return Rule{}, nil, false, fmt.Errorf("unexpected %q after %s %s", strings.Join(fields[2:], " "), directive, fields[1])
	}
	switch kind {
	case KeepClass, TraceClass:
		rule.Name, err = normalizeClass(fields[1])
	case TraceMethodAnnotation:
		rule.Name, err = normalizeClass(strings.TrimPrefix(fields[1], "@"))
	default:
		rule.Name, err = normalizePackage(fields[1])
	}
	if err != nil {
		return Rule{}, nil, false, fmt.Errorf("%s: %w", directive, err)
	}
	return rule, nil, true, nil
}

// normalizeClass converts a class name in internal or dotted form to
// internal form and checks it.
func normalizeClass(name string) (string, error) {
	internal := strings.ReplaceAll(name, ".", "/")
	if strings.HasSuffix(internal, "/") {
		return "", fmt.Errorf("class name %q ends with a separator (a package? use -keeppackage)", name)
	}
	if err := checkSegments(internal); err != nil {
		return "", fmt.Errorf("bad class name %q: %w", name, err)
	}
	return internal, nil
}

// normalizePackage converts a package name in internal or dotted form,
// with or without a trailing separator, to internal form without one.
func normalizePackage(name string) (string, error) {
	internal := strings.TrimSuffix(strings.ReplaceAll(name, ".", "/"), "/")
	if err := checkSegments(internal); err != nil {
		return "", fmt.Errorf("bad package name %q: %w", name, err)
	}
	return internal, nil
}

var errEmptySegment = errors.New("empty name segment")

// checkSegments rejects empty names and segments and characters that
// cannot be part of a class name; '*' and '?' get their own message
// because users coming from ProGuard rules try wildcards.
func checkSegments(internal string) error {
	if internal == "" {
		return errEmptySegment
	}
	for _, seg := range strings.Split(internal, "/") {
		if seg == "" {
			return errEmptySegment
		}
	}
	if strings.ContainsAny(internal, "*?") {
		return errors.New("wildcards are not supported")
	}
	if strings.ContainsAny(internal, ";[<>:(),{}@") {
		return errors.New("character not allowed in a class name")
	}
	// A blank or a control character is the list's own separator or
	// damage: written back, the name would read as another.
	if strings.ContainsFunc(internal, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return errors.New("blank or control character inside a name")
	}
	return nil
}
