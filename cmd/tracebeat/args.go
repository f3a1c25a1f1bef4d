package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// expandArgfiles replaces every "@file" argument by the file's lines: one
// argument per line, blank lines and lines starting with # skipped.
// "@@x" stands for a literal "@x".
func expandArgfiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "@@"):
			out = append(out, a[1:])
		case strings.HasPrefix(a, "@") && len(a) > 1:
			lines, err := readLines(a[1:])
			if err != nil {
				return nil, fileError("argfile", a[1:], err)
			}
			for _, l := range lines {
				out = append(out, l)
			}
		default:
			out = append(out, a)
		}
	}
	return out, nil
}

// readLines returns the trimmed, non-empty, non-comment lines of a file.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	first := true
	for sc.Scan() {
		l := strings.TrimSpace(withoutBOM(sc.Text(), first))
		first = false
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, l)
	}
	return lines, sc.Err()
}

// withoutBOM drops the UTF-8 byte-order mark that Windows editors put at
// the start of a file, so that its first argument or key reads as typed.
func withoutBOM(line string, first bool) string {
	if first {
		return strings.TrimPrefix(line, "\uFEFF")
	}
	return line
}

// configEntry is one "key = value" line of a --config file.
type configEntry struct {
	key, value string
	line       int
}

// readConfig parses a --config file: one "key = value" per line, where key
// is a long flag name without dashes ("input" adds an input). Relative
// paths are not rewritten: the file is meant to be written by a tool with
// absolute paths.
func readConfig(path string) ([]configEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError("config", path, err)
	}
	defer f.Close()
	var out []configEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(withoutBOM(sc.Text(), n == 1))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("config %s:%d: want \"key = value\", got %q", path, n, l)
		}
		out = append(out, configEntry{k, strings.TrimSpace(v), n})
	}
	if err := sc.Err(); err != nil {
		return nil, fileError("config", path, err)
	}
	return out, nil
}

// fileError names what a file is for, its path and the reason, without
// repeating the path that *fs.PathError already carries ("argfile a.txt:
// no such file or directory", not "argfile a.txt: open a.txt: no such file
// or directory"). The *fs.PathError stays in the chain, so callers can still
// tell an unreadable file from a malformed one.
func fileError(what, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return &namedFileError{what: what, path: path, reason: pe.Err, wrapped: err}
	}
	if strings.Contains(err.Error(), path) {
		return fmt.Errorf("%s: %w", what, err) // e.g. "mapping.txt:3: ..." already names the file and line
	}
	return fmt.Errorf("%s %s: %w", what, path, err)
}

// namedFileError is a file-system error reworded by fileError.
type namedFileError struct {
	what, path string
	reason     error // the bare cause, e.g. fs.ErrNotExist's syscall error
	wrapped    error
}

func (e *namedFileError) Error() string { return e.what + " " + e.path + ": " + e.reason.Error() }
func (e *namedFileError) Unwrap() error { return e.wrapped }
