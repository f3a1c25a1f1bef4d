package classfile_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// TestEveryCutIsRefused: a class file or a Code attribute cut anywhere
// short of its end is refused with an error, never read past its end and
// never taken for a shorter valid one. Each bound the readers check is
// met at its exact edge by some cut.
func TestEveryCutIsRefused(t *testing.T) {
	// Each cut is a slice with no room past its end, so that a read past
	// it fails instead of finding the rest of the input.
	classes := 0
	for set, fixtures := range fixtureSets(t) {
		for _, name := range sortedNames(fixtures) {
			// Whole classes: the small ones (every byte of the larger ones
			// is read by the same code).
			if data := fixtures[name]; len(data) < 4000 {
				classes++
				for n := range len(data) {
					_, err := cf.Parse(data[:n:n])
					require.Error(t, err, "%s %s cut at %d of %d", set, name, n, len(data))
				}
			}
		}
	}
	codes := 0
	for _, fc := range fixtureCodes(t) {
		if len(fc.data) > 3000 {
			continue
		}
		codes++
		for n := range len(fc.data) {
			_, err := cf.DecodeCode(fc.pool, fc.data[:n:n])
			require.Error(t, err, "%s: Code cut at %d of %d", fc.where, n, len(fc.data))
		}
	}
	require.Greater(t, classes, 20)
	require.Greater(t, codes, 100)
}
