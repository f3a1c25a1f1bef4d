package diff

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestSittingsNote: sides recorded one after the other get a note naming
// which came first; sides that took turns, a side of one run, and runs
// that do not say when they were recorded get none.
func TestSittingsNote(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	at := func(seconds ...int) Side {
		s := side()
		for _, sec := range seconds {
			p := run(map[string][2]float64{"a": {1, 1}})
			if sec >= 0 {
				p.Start = t0.Add(time.Duration(sec) * time.Second)
			}
			s.Runs = append(s.Runs, p)
		}
		return s
	}
	for _, tc := range []struct {
		name      string
		base, new Side
		want      string // "" no note
	}{
		{"base first", at(4, 0, 2), at(6, 10, 8), "every run of BASE before any of NEW"},
		{"new first", at(6, 8, 10), at(0, 2, 4), "every run of NEW before any of BASE"},
		{"in turns", at(0, 3, 4, 7), at(1, 2, 5, 6), ""},
		{"one base run inside new's", at(0, 2, 9), at(6, 8, 10), ""},
		{"one run a side", at(0), at(6), ""},
		{"a run without a start", at(0, -1, 4), at(6, 8, 10), ""},
		{"a NEW run without a start", at(0, 2, 4), at(6, -1, 10), ""},
		{"one BASE run", at(0), at(6, 8, 10), ""},
		{"one NEW run", at(0, 2, 4), at(6), ""},
		{"two runs a side", at(0, 4), at(6, 8), "every run of BASE before any of NEW"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			note := sittingsNote(tc.base, tc.new)
			if tc.want == "" {
				assert.Empty(t, note)
				return
			}
			assert.Contains(t, note, tc.want)
			assert.True(t, strings.HasPrefix(note, "BASE's runs were recorded 2026-11-28 15:00:"), note)
			if tc.name == "base first" {
				assert.True(t, strings.HasPrefix(note, "BASE's runs were recorded 2026-11-28 15:00:00 to 15:00:04 UTC, NEW's 2026-11-28 15:00:06 to 15:00:10 UTC: "), note)
			}
			res := Compare(tc.base, tc.new, Options{})
			assert.Contains(t, res.Notes, note, "Compare says it")
		})
	}
}
