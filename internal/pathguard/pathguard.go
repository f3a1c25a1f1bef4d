// Package pathguard keeps a run from writing over what it reads: every
// output path is compared with every input by file identity, not by the
// name it was given. Symbolic links anywhere in a path are resolved,
// hard links are caught by os.SameFile, an output inside an input
// directory and an input inside an output directory count as overlaps,
// and two outputs that end up as one file are reported too.
package pathguard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Path is one path of a run, with the role it is named by in messages
// ("input", "method map", ...).
type Path struct {
	Role string
	Path string
	// Tree: as an output, the whole directory is replaced (a mirrored
	// class directory, the cache), so nothing may live below it; as an
	// input, a directory whose files are read.
	Tree bool
}

// OverlapError is an output that is, or lies in, an input.
type OverlapError struct{ Output, Input Path }

func (e *OverlapError) Error() string {
	return fmt.Sprintf("%s %s would overwrite %s %s", e.Output.Role, e.Output.Path, e.Input.Role, e.Input.Path)
}

// DuplicateError is two outputs that are one file.
type DuplicateError struct{ A, B Path }

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s %s and %s %s are the same file", e.A.Role, e.A.Path, e.B.Role, e.B.Path)
}

// Check returns an *OverlapError or a *DuplicateError for the first
// conflict, nil when there is none, or the error of a path it cannot
// resolve.
func Check(inputs, outputs []Path) error {
	ins := make([]resolved, len(inputs))
	for i, p := range inputs {
		r, err := resolve(p)
		if err != nil {
			return err
		}
		ins[i] = r
	}
	outs := make([]resolved, len(outputs))
	for i, p := range outputs {
		r, err := resolve(p)
		if err != nil {
			return err
		}
		outs[i] = r
	}
	for _, o := range outs {
		for _, in := range ins {
			if overlaps(o, in) {
				return &OverlapError{Output: o.p, Input: in.p}
			}
		}
	}
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if a.same(b) {
				return &DuplicateError{A: a.p, B: b.p}
			}
		}
	}
	return nil
}

// resolved is a path with its symbolic links resolved, and its file when
// it exists.
type resolved struct {
	p    Path
	real string
	info os.FileInfo
}

func resolve(p Path) (resolved, error) {
	abs, err := filepath.Abs(p.Path)
	if err != nil {
		return resolved{}, fmt.Errorf("%s %s: %w", p.Role, p.Path, err)
	}
	r := resolved{p: p}
	if info, err := os.Stat(abs); err == nil {
		r.info = info
	}
	// Resolve the longest existing prefix; the rest does not exist yet and
	// has no links in it.
	rest := ""
	for dir := abs; ; {
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			r.real = filepath.Join(real, rest)
			return r, nil
		}
		// Missing, or below a file (which the writer will report): go up.
		parent := filepath.Dir(dir)
		if parent == dir {
			r.real = abs
			return r, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

func (a resolved) same(b resolved) bool {
	if a.info != nil && b.info != nil && os.SameFile(a.info, b.info) {
		return true
	}
	// Resolved paths compare as text; where a file system ignores case,
	// an existing file was already caught by os.SameFile above.
	return a.real == b.real
}

// overlaps reports whether writing output o can change input in.
func overlaps(o, in resolved) bool {
	if o.same(in) {
		return true
	}
	inDir := in.info != nil && in.info.IsDir()
	if inDir && within(o.real, in.real) {
		return true
	}
	return o.p.Tree && within(in.real, o.real)
}

// within reports whether path lies below dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
