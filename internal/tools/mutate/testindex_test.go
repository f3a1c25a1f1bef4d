package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIndexTestsFor: a mutant is met by the tests that ran a block
// holding it and by those whose coverage is unknown; code in no block by
// every test; code in blocks no test ran by none.
func TestIndexTestsFor(t *testing.T) {
	abs, err := filepath.Abs("d/a.go")
	require.NoError(t, err)
	x := &index{cases: []testCase{{name: "TestA"}, {name: "TestB"}, {name: "TestC"}, {name: "TestBroken", everywhere: true}}}
	x.merge(map[string][]block{abs: {{startLine: 1, startCol: 1, endLine: 5, endCol: 2, by: []int{0}}, {startLine: 7, startCol: 1, endLine: 9, endCol: 2}}}, 0)
	x.merge(map[string][]block{abs: {{startLine: 1, startCol: 1, endLine: 5, endCol: 2, by: []int{0}}, {startLine: 7, startCol: 1, endLine: 9, endCol: 2}, {startLine: 11, startCol: 1, endLine: 12, endCol: 2, by: []int{0}}}}, 2)
	for _, tc := range []struct {
		name    string
		line    int
		tests   []int
		inBlock bool
		covered bool
	}{
		{"ran by A and C", 3, []int{0, 2, 3}, true, true},
		{"ran by none", 8, nil, true, false},
		{"ran by C", 11, []int{2, 3}, true, true},
		{"in no block", 6, []int{0, 1, 2, 3}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &mutant{file: "d/a.go", line: tc.line, col: 3}
			tests, inBlock := x.testsFor(m)
			assert.Equal(t, tc.tests, tests)
			assert.Equal(t, tc.inBlock, inBlock)
			assert.Equal(t, tc.covered, x.covers(m))
		})
	}
}

// TestIndexPhases: the tests that took under a second alone run first;
// slow ones and those of unknown coverage after; a pattern names each
// test once and the timeout is five times their time, 10 s at least.
func TestIndexPhases(t *testing.T) {
	x := &index{cases: []testCase{
		{pkg: "p", name: "TestQuick", took: 10 * time.Millisecond},
		{pkg: "q", name: "TestQuick", took: 999 * time.Millisecond},
		{pkg: "p", name: "TestSlow", took: 8 * time.Second},
		{pkg: "q", name: "TestBroken", took: time.Millisecond, everywhere: true},
	}}
	assert.Equal(t, [][]int{{0, 1}, {2, 3}}, x.phases([]int{0, 1, 2, 3}))
	assert.Equal(t, [][]int{{2}}, x.phases([]int{2}))
	pkgs, run, timeout := x.selection([]int{0, 1})
	assert.Equal(t, []string{"p", "q"}, pkgs)
	assert.Equal(t, "^(TestQuick)$", run)
	assert.Equal(t, 10*time.Second, timeout)
	pkgs, run, timeout = x.selection([]int{2, 3})
	assert.Equal(t, []string{"p", "q"}, pkgs)
	assert.Equal(t, "^(TestBroken|TestSlow)$", run)
	assert.Equal(t, 5*(8*time.Second+time.Millisecond), timeout)
}

// TestReadCoverage: a cover profile's blocks, ran or not, under the
// module's directory; a line it cannot read is an error that names it.
func TestReadCoverage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.out")
	require.NoError(t, os.WriteFile(path, []byte("mode: set\nm/d/a.go:1.2,3.4 2 1\nm/d/a.go:5.1,6.2 1 0\n"), 0o644))
	p, err := readCoverage(path, "m", "/root")
	require.NoError(t, err)
	assert.Equal(t, map[string][]block{filepath.Join("/root", "d", "a.go"): {
		{startLine: 1, startCol: 2, endLine: 3, endCol: 4, by: []int{0}},
		{startLine: 5, startCol: 1, endLine: 6, endCol: 2},
	}}, p)
	require.NoError(t, os.WriteFile(path, []byte("mode: set\nm/d/a.go:1.2,x 2 1\n"), 0o644))
	_, err = readCoverage(path, "m", "/root")
	assert.ErrorContains(t, err, "m/d/a.go:1.2,x")
}

// TestBuildIndex runs the index on this tool's own tests: each listed,
// timed, and the tests of the operators found on findMutants' lines.
func TestBuildIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	t.Chdir(filepath.Join(wd, "..", "..", ".."))
	const pkg = "github.com/tracebeat/tracebeat/internal/tools/mutate"
	x, err := buildIndex("internal/tools/mutate", nil, "", 1)
	require.NoError(t, err)
	assert.Empty(t, x.cases, "no test packages, no tests")
	x, err = buildIndex("internal/tools/mutate", []string{pkg}, "^(TestBuildIndex|TestTestsOf)$", 2)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, c := range x.cases {
		names[c.name] = true
		assert.Positive(t, c.took, c.name)
		assert.False(t, c.everywhere, c.name)
	}
	assert.True(t, names["TestIndexPhases"])
	assert.False(t, names["TestBuildIndex"], "skipped")
	// operators.go's code is run by the operator tests, not by
	// TestIndexPhases.
	ms, err := findMutants("internal/tools/mutate/operators.go")
	require.NoError(t, err)
	var tests []int
	inBlock := false
	for _, m := range ms {
		if tests, inBlock = x.testsFor(m); inBlock {
			break
		}
	}
	require.True(t, inBlock)
	var met []string
	for _, i := range tests {
		met = append(met, x.cases[i].name)
	}
	assert.NotContains(t, met, "TestIndexPhases")
	assert.NotEmpty(t, met)
}
