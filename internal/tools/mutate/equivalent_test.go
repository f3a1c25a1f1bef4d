package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEquivalentNeedsAReason: an entry is explained by a comment on its
// line or by the comment that opens its paragraph; one without either is
// refused, naming its line. The repository's own list passes.
func TestEquivalentNeedsAReason(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, text, err string
	}{
		{"paragraph", "# why\na.go:1:2 < <=\na.go:3:4 > >=\n", ""},
		{"inline", "a.go:1:2 < <=  # why\n", ""},
		{"none", "# why\na.go:1:2 < <=\n\na.go:3:4 > >=\n", "list.txt:4: a.go:3:4 > >= has no reason"},
		{"empty inline", "a.go:1:2 < <=  #\n", "list.txt:1: a.go:1:2 < <= has no reason"},
		{"malformed", "# why\na.go:1:2 <\n", "list.txt:2: want"},
	} {
		path := filepath.Join(dir, "list.txt")
		require.NoError(t, os.WriteFile(path, []byte(c.text), 0o644))
		got, err := readEquivalent(path)
		if c.err == "" {
			assert.NoError(t, err, c.name)
			assert.NotEmpty(t, got, c.name)
		} else {
			assert.ErrorContains(t, err, c.err, c.name)
		}
	}
	_, err := readEquivalent(filepath.Join("..", "..", "..", "scripts", "mutate-equivalent.txt"))
	assert.NoError(t, err)
}

// TestTestFailed: a test's failure or a panic is the tests' verdict; a
// binary killed or a machine's error is not.
func TestTestFailed(t *testing.T) {
	assert.True(t, testFailed([]byte("--- FAIL: TestX (0.00s)\nFAIL\n")))
	assert.True(t, testFailed([]byte("panic: runtime error: index out of range\n")))
	assert.False(t, testFailed([]byte("FAIL\tgithub.com/x/y\t0.1s\nsignal: killed\n")))
}
