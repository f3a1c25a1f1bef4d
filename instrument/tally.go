package instrument

import (
	"sync"

	"github.com/tracebeat/tracebeat/instrument/pack"

	"github.com/tracebeat/tracebeat/instrument/scan"
)

// runTally is what the workers count as they go, under one lock: the
// result's counters, and the planned methods a rewrite left untouched
// (whose lines the maps leave out).
type runTally struct {
	mu      sync.Mutex
	res     *Result
	skipped map[MethodKey]string // by method: the reason
}

// count changes the result's counters under the lock.
func (t *runTally) count(change func(r *Result)) {
	t.mu.Lock()
	change(t.res)
	t.mu.Unlock()
}

// skip notes planned methods of ci that were left untouched.
func (t *runTally) skip(ci *scan.Class, skipped []pack.Skip) {
	if len(skipped) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range skipped {
		if s.Index < 0 || int(s.Index) >= len(ci.Methods) {
			continue
		}
		m := &ci.Methods[s.Index]
		t.res.Skipped[s.Reason]++
		if m.Trace {
			t.skipped[ci.Key(m)] = s.Reason
		}
	}
}
