package traceout

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLevelsKeepTheirBudget: past its budget, the finest level goes, until
// the packed slices fit; the coarse levels stay whole; a list's chunks of
// 4,096 slices go to the spill file and read back as packed.
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
		var sp spill
		b := newLODBuilder(tc.budget, &sp)
		th := b.thread()
		// One call of a second, and under it 10,000 calls of 1 µs, 1 µs apart.
		b.call(th, 0, 0, 1e9, 0, 0)
		for i := range int64(10_000) {
			b.call(th, 1, 1000+i*2000, 2000+i*2000, 1, 0)
		}
		b.finish()
		switch tc.wantLevels {
		case 0:
			assert.Less(t, b.levels, lodLevels)
			assert.Greater(t, b.levels, 1)
			assert.LessOrEqual(t, b.total, tc.budget)
		default:
			assert.Equal(t, tc.wantLevels, b.levels, "budget %d", tc.budget)
		}
		counted := 0
		var buf []byte
		for j := range lodLevels {
			packed, slices := 0, 0
			for _, l := range th.lists[j] {
				if l == nil {
					continue
				}
				slices += l.n
				chunks := len(l.chunks)
				if l.inChunk > 0 {
					chunks++
				}
				assert.Equal(t, (l.n+lodChunk-1)/lodChunk, chunks)
				n := 0
				for c := range chunks {
					var err error
					buf, err = b.chunk(l, c, buf)
					require.NoError(t, err)
					packed += len(buf)
					unpackSlices(buf, 0, func(int, int64, int64, int, uint64) { n++ })
				}
				assert.Equal(t, l.n, n, "level %d: the chunks hold the list's slices", j)
			}
			if j >= b.levels {
				assert.Zero(t, slices, "level %d went", j)
			}
			assert.Equal(t, b.size[j], packed, "level %d", j)
			counted += packed
		}
		assert.Equal(t, b.total, counted)
		if tc.wantLevels == lodLevels {
			assert.NotNil(t, sp.f, "10,000 slices in a list: chunks spilled")
		}
		sp.close()
	}
}
