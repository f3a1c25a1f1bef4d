package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTestsOf: a package under decode is tested by its own tests and by
// those of the packages that import it; the root's by the root's only.
func TestTestsOf(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	t.Chdir(filepath.Join(wd, "..", "..", ".."))
	tests, err := testsOf("decode")
	require.NoError(t, err)
	const mod = "github.com/tracebeat/tracebeat/"
	assert.Equal(t, []string{mod + "decode"}, tests["decode"])
	assert.Equal(t, []string{mod + "decode", mod + "decode/traceout"}, tests["decode/traceout"])
	assert.Contains(t, tests["decode/recording"], mod+"decode")
	assert.NotContains(t, tests["decode/recording"], mod+"decode/flamepng")
}
