package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTable prints a results file's outcomes by operator for the code as
// it is: the mutants written down left out, those without an outcome (or
// with one of other code) untested.
func TestTable(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.MkdirAll("d", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("d", "a.go"), []byte("package d\n\nfunc F(a int) bool { return a < 3 }\n"), 0o644))
	digest, err := treeDigest([]string{filepath.Join("d", "a.go")})
	require.NoError(t, err)
	r := &run{files: regexp.MustCompile(""), equivalent: map[string]bool{"d/a.go:3:33 3 2": true}, previous: results{
		"d/a.go:3:31 < <=": {digest: digest, status: "killed"},
		"d/a.go:3:31 < >=": {digest: digest, status: "timed-out"},
		"d/a.go:3:33 3 4":  {digest: "other", status: "killed"},
	}}
	out := captureStdout(t, func() { require.NoError(t, r.table("d")) })
	assert.Equal(t, "mutate: table d operator boundary   1 of 1\n"+
		"mutate: table d operator negation   1 of 1\n"+
		"mutate: table d all 2 of 2 score=100.0% untested=1\n", out)
	r.previous["d/a.go:3:33 3 4"] = outcome{digest: digest, status: "lived"}
	out = captureStdout(t, func() { require.NoError(t, r.table("d")) })
	assert.Contains(t, out, "operator constant   0 of 1\n")
	assert.Contains(t, out, "all 2 of 3 score=66.7% untested=0\n")
}

func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	rd, w, err := os.Pipe()
	require.NoError(t, err)
	was := os.Stdout
	os.Stdout = w
	f()
	os.Stdout = was
	require.NoError(t, w.Close())
	b, err := io.ReadAll(rd)
	require.NoError(t, err)
	return string(b)
}
