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
	classes, codes := 0, 0
	for set, fixtures := range fixtureSets(t) {
		for _, name := range sortedNames(fixtures) {
			data := fixtures[name]
			c, err := cf.Parse(data)
			require.NoError(t, err)
			// Whole classes: the small ones (every byte of the larger ones
			// is read by the same code).
			if len(data) < 4000 {
				classes++
				for n := range len(data) {
					_, err := cf.Parse(data[:n])
					require.Error(t, err, "%s %s cut at %d of %d", set, name, n, len(data))
				}
			}
			for i := range c.Methods {
				a, ok := c.FindAttribute(c.Methods[i].Attributes, "Code")
				if !ok || len(a.Data) > 3000 {
					continue
				}
				codes++
				for n := range len(a.Data) {
					_, err := cf.DecodeCode(c.Pool, a.Data[:n])
					require.Error(t, err, "%s %s method %d: Code cut at %d of %d", set, name, i, n, len(a.Data))
				}
			}
		}
	}
	require.Greater(t, classes, 20)
	require.Greater(t, codes, 100)
}
