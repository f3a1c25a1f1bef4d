package diff

import (
	"fmt"
	"time"

	"github.com/tracebeat/tracebeat/profile"
)

// sittingsNote says when one side's runs were all recorded before the
// other's began. A machine busier in one sitting than in the other then
// slows every method of one side, and nothing in the runs tells that from
// a slower build: with fewer than minMethodsToNormalize methods the runs'
// overall speed is not taken out. On a loaded CI runner the five-method
// fixture of testdata/diff, base recorded before new, had its unchanged
// steady() at 22 ms against 60 ms and regressed; recorded in turns, the
// load falls on both sides alike. It returns "" when the sides took turns
// or a run does not say when it was recorded (a Matrix buffer).
func sittingsNote(base, next Side) string {
	bFirst, bLast, ok1 := span(base.Runs)
	nFirst, nLast, ok2 := span(next.Runs)
	if !ok1 || !ok2 || len(base.Runs) < 2 || len(next.Runs) < 2 {
		return ""
	}
	var before, after string
	switch {
	case bLast.Before(nFirst):
		before, after = "BASE", "NEW"
	case nLast.Before(bFirst):
		before, after = "NEW", "BASE"
	default:
		return ""
	}
	return fmt.Sprintf("BASE's runs were recorded %s, NEW's %s: every run of %s before any of %s. "+
		"A machine busier in one sitting slows every method of one side, which the comparison cannot tell from a slower build; "+
		"record the builds in turns (tracebeat record -o BASE -o NEW, docs/diff.md)",
		between(bFirst, bLast), between(nFirst, nLast), before, after)
}

// span returns when the first and the last of the runs started; ok is
// false when a run does not say.
func span(runs []*profile.Profile) (first, last time.Time, ok bool) {
	for i, p := range runs {
		if p.Start.IsZero() {
			return first, last, false
		}
		if i == 0 || p.Start.Before(first) {
			first = p.Start
		}
		if i == 0 || p.Start.After(last) {
			last = p.Start
		}
	}
	return first, last, len(runs) > 0
}

// between names a span of starts, to the second, in UTC.
func between(a, b time.Time) string {
	const layout = "2006-01-02 15:04:05"
	return a.UTC().Format(layout) + " to " + b.UTC().Format("15:04:05") + " UTC"
}
