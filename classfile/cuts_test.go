package classfile_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// TestEveryCutIsRefused: a class file or a Code attribute cut anywhere
// short of its end is refused with an error, never read past its end and
// never taken for a shorter valid one; the error says the input ran out
// (at the cut, for a read past it), not something the missing bytes
// would have said. Each bound the readers check is met at its exact edge
// by some cut.
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
					requireCutError(t, err, n, fmt.Sprintf("%s %s cut at %d of %d", set, name, n, len(data)))
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
			var fe *cf.FormatError
			require.True(t, errors.As(err, &fe), "%s: Code cut at %d: %v", fc.where, n, err)
			require.True(t, strings.Contains(fe.Msg, "truncated") || strings.Contains(fe.Msg, "exceeds the") || strings.Contains(fe.Msg, "cannot fit"),
				"%s: Code cut at %d says it ran out, not %q", fc.where, n, fe.Msg)
			require.LessOrEqual(t, fe.Offset, n, "%s: Code cut at %d: %v", fc.where, n, err)
		}
	}
	require.Greater(t, classes, 20)
	require.Greater(t, codes, 100)
}

// requireCutError: the error of a class cut at n says it ran out, where:
// a read that passes the end names its offset and the bytes it had, which
// reach exactly to the cut; a count or length checked against what is
// left names the bytes left. It is never another complaint (a bad magic,
// an index out of range) made of bytes the input did not have.
func requireCutError(t *testing.T, err error, n int, what string) {
	t.Helper()
	var fe *cf.FormatError
	require.True(t, errors.As(err, &fe), "%s: %v", what, err)
	var need, have int
	if _, scanErr := fmt.Sscanf(fe.Msg, "truncated: need %d bytes, have %d", &need, &have); scanErr == nil {
		require.Equal(t, n, fe.Offset+have, "%s: %v", what, err)
		require.Greater(t, need, have, "%s: %v", what, err)
		return
	}
	require.True(t, strings.Contains(fe.Msg, "cannot fit in the") || strings.Contains(fe.Msg, "exceeds the"), "%s: %v", what, err)
	require.LessOrEqual(t, fe.Offset, n, "%s: %v", what, err)
}
