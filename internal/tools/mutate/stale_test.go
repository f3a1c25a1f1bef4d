package main

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStale: an entry written down as equivalent that matches no mutant
// of the files run is named; entries of other directories, of files not
// run, or that match are not.
func TestStale(t *testing.T) {
	r := &run{files: regexp.MustCompile(`^d/`), equivalent: map[string]bool{
		"d/a.go:3:9 < <=":    true, // matches
		"d/a.go:4:9 > >=":    true, // the code moved
		"d/sub/b.go:1:1 + -": true, // no such mutant in the sub-directory either
		"dd/a.go:4:9 > >=":   true, // another directory
		"e/a.go:4:9 > >=":    true,
	}}
	all := []*mutant{{file: "d/a.go", line: 3, col: 9, from: "<", to: "<="}}
	assert.Equal(t, []string{"d/a.go:4:9 > >=", "d/sub/b.go:1:1 + -"}, r.stale("d", all))
	r.files = regexp.MustCompile(`^d/a\.go$`)
	assert.Equal(t, []string{"d/a.go:4:9 > >="}, r.stale("d", all), "only the files run")
}
