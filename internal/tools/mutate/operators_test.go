package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOperators: each operator finds its mutants in a small file, and
// each mutant's replacement yields the code it names.
func TestOperators(t *testing.T) {
	const src = `package p

import "errors"

const limit = 8

func f(a, b int, ok bool) (int, error) {
	var buf [4]byte
	_ = buf
	if a > 0 && !ok {
		b += a << 2
		g()
	}
	if b == 0 {
		return 0, errors.New("zero")
	}
	return a &^ b, nil
}

func g() {}
`
	path := filepath.Join(t.TempDir(), "p.go")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	ms, err := findMutants(path)
	require.NoError(t, err)
	got := map[string][]string{} // "kind from to" -> the changed lines
	for _, m := range ms {
		out := src[:m.off] + m.repl + src[m.end:]
		line := strings.Split(out, "\n")[m.line-1]
		got[m.kind+" "+m.from+" "+m.to] = append(got[m.kind+" "+m.from+" "+m.to], strings.TrimSpace(line))
	}
	for key, line := range map[string]string{
		"boundary > >=":            "if a >= 0 && !ok {",
		"negation > <=":            "if a <= 0 && !ok {",
		"logical && ||":            "if a > 0 || !ok {",
		"not ! ":                   "if a > 0 && ok {",
		"assign += -=":             "b -= a << 2",
		"bitwise << >>":            "b += a >> 2",
		"shift 2 3":                "b += a << 3",
		"shift 2 1":                "b += a << 1",
		"constant 0 1":             "if a > 1 && !ok {",
		"statement call none":      "",
		"statement if-body {}":     "if b == 0 {}",
		"statement return-err nil": `return 0, nil`,
		"bitwise &^ &":             "return a & b, nil",
		"negation == !=":           "if b != 0 {",
	} {
		assert.Contains(t, got[key], line, key)
	}
	for key := range got {
		assert.NotContains(t, key, "constant 8", "const declarations are left alone")
		assert.NotContains(t, key, "constant 4", "an array's length is a type")
		assert.False(t, strings.HasPrefix(key, "constant 2"), "a shift's amount is the shift operator's: %s", key)
	}
}

// TestSourceFilesThisPlatformBuilds: the files mutated are those go test
// compiles here: no tests, no testdata, no file for another platform or
// left out by its build constraint.
func TestSourceFilesThisPlatformBuilds(t *testing.T) {
	dir := t.TempDir()
	other := "plan9"
	if runtime.GOOS == other {
		other = "aix"
	}
	files := map[string]string{
		"a.go":               "package p\n",
		"a_test.go":          "package p\n",
		"b_" + other + ".go": "package p\n",
		"c.go":               "//go:build ignore\n\npackage p\n",
		"d.go":               "//go:build " + runtime.GOOS + "\n\npackage p\n",
		"testdata/e.go":      "package p\n",
		"sub/f.go":           "package q\n",
	}
	for name, src := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	got, err := sourceFiles(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "a.go"), filepath.Join(dir, "d.go"), filepath.Join(dir, "sub", "f.go")}, got)
}
