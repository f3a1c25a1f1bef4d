package traceout

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLevelsKeepTheirBudget: past its budget, the finest level goes, until
// the slices fit; the coarse levels stay whole.
func TestLevelsKeepTheirBudget(t *testing.T) {
	tests := []struct {
		budget     int
		wantLevels int
	}{
		{budget: 1 << 30, wantLevels: lodLevels},
		{budget: 2000, wantLevels: 0}, // 0: fewer than all, checked below
		{budget: 1, wantLevels: 1},    // the coarsest level stays, over budget
	}
	for _, tc := range tests {
		b := newLODBuilder(tc.budget)
		th := b.thread()
		// One call of a second, and under it 1,000 calls of 1 µs, 1 µs apart.
		b.call(th, 0, 0, 1e9, 0, 0)
		for i := range int64(1000) {
			b.call(th, 1, 1000+i*2000, 2000+i*2000, 1, 0)
		}
		switch tc.wantLevels {
		case 0:
			assert.Less(t, b.levels, lodLevels)
			assert.Greater(t, b.levels, 1)
			assert.LessOrEqual(t, b.total, tc.budget)
		default:
			assert.Equal(t, tc.wantLevels, b.levels, "budget %d", tc.budget)
		}
		// What each level kept packs into no more than it counted (a
		// merged slice's duration counts two bytes to grow by).
		counted := 0
		for j := range lodLevels {
			n, packed := 0, 0
			for _, list := range th.lists[j] {
				n += len(list)
				last := int64(0)
				for _, s := range list {
					packed += len(packSlice(nil, int(s.name), s.start-last, s.dur, 0, uint64(s.flags)))
					last = s.start
				}
			}
			if j >= b.levels {
				assert.Zero(t, n, "level %d went", j)
			}
			assert.LessOrEqual(t, packed, b.size[j], "level %d", j)
			counted += b.size[j]
		}
		assert.Equal(t, b.total, counted)
	}
}
