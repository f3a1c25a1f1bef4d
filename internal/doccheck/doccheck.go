// Package doccheck checks the project's Markdown: every table has as many
// cells in each row as in its head, every code fence is closed, and every
// relative link and every path of the repository a document names (in
// backticks, starting with one of its top folders) exists.
package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A Problem is one thing wrong in a document.
type Problem struct {
	File string
	Line int
	What string
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.What) }

var (
	link     = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	code     = regexp.MustCompile("`([^`\\s]+)`")
	external = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// Check reads one document (file, relative to root, the repository) and
// returns what is wrong in it. tops are the repository's top folders whose
// paths a document may name in backticks.
func Check(root, file string, text string, tops []string) []Problem {
	var out []Problem
	add := func(line int, format string, a ...any) {
		out = append(out, Problem{File: file, Line: line, What: fmt.Sprintf(format, a...)})
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	fence, fenceAt := "", 0
	var table []int // the lines of the table being read
	endTable := func() {
		if len(table) > 0 {
			checkTable(lines, table, add)
			table = nil
		}
	}
	for i, l := range lines {
		n := i + 1
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			endTable()
			fence, fenceAt = t[:3], n
			for strings.HasPrefix(t[len(fence):], fence[:1]) {
				fence += fence[:1]
			}
			continue
		}
		if strings.HasPrefix(t, "|") {
			table = append(table, i)
		} else {
			endTable()
		}
		for _, m := range link.FindAllStringSubmatch(l, -1) {
			target := m[1]
			if external.MatchString(target) || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if _, err := os.Stat(filepath.Join(root, filepath.Dir(file), target)); err != nil {
				add(n, "the link %s names nothing here", m[1])
			}
		}
		for _, m := range code.FindAllStringSubmatch(l, -1) {
			p := m[1]
			if !repoPath(p, tops) {
				continue
			}
			p = strings.TrimSuffix(p, "/")
			if i := strings.IndexByte(p, ':'); i > 0 {
				p = p[:i] // a line or a symbol after the file
			}
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				add(n, "the path %s names nothing in the repository", m[1])
			}
		}
	}
	endTable()
	if fence != "" {
		add(fenceAt, "the code fence opened here is never closed")
	}
	return out
}

// repoPath reports whether p reads as a path of the repository: a top
// folder, a slash, and no pattern, placeholder or option in it.
func repoPath(p string, tops []string) bool {
	if strings.ContainsAny(p, "*<>{}$=,()\\\"'") || strings.HasPrefix(p, "-") {
		return false
	}
	for _, t := range tops {
		if strings.HasPrefix(p, t+"/") {
			return true
		}
	}
	return false
}

// checkTable checks one table's rows against its head: the same number of
// cells, and a separator row second.
func checkTable(lines []string, rows []int, add func(int, string, ...any)) {
	head := cells(lines[rows[0]])
	if len(rows) < 2 || !separator(lines[rows[1]]) {
		add(rows[0]+1, "a table without its separator row (| --- |) under its head")
		return
	}
	for _, r := range rows[1:] {
		if c := cells(lines[r]); c != head {
			add(r+1, "a table row of %d cells where its head has %d", c, head)
		}
	}
}

// cells counts a row's cells: its bars not escaped nor inside backticks,
// less one.
func cells(row string) int {
	row = strings.TrimSpace(row)
	n := 0
	inCode := false
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '`':
			inCode = !inCode
		case '|':
			if !inCode {
				n++
			}
		}
	}
	if !strings.HasSuffix(row, "|") {
		n++ // a last cell without its closing bar
	}
	return n - 1
}

func separator(row string) bool {
	t := strings.Trim(strings.TrimSpace(row), "|")
	for _, c := range strings.Split(t, "|") {
		c = strings.TrimSpace(c)
		if strings.Trim(c, ":-") != "" || !strings.Contains(c, "-") {
			return false
		}
	}
	return true
}
