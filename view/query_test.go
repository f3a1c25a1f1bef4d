package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// known is a thread of known calls: root over [0, 1000), its 100 callees
// child at [10i, 10i+5), each calling leaf at [10i, 10i+2).
func known(t *testing.T) *Index {
	x := NewIndex()
	write := func(name string, at, dur int64) {
		require.NoError(t, x.Write(traceout.Event{Ph: 'X', Name: name, TsNs: at, DurNs: dur, Pid: 1, Tid: 7}))
	}
	write("root", 0, 1000)
	for i := range int64(100) {
		write("child", 10*i, 5)
		write("leaf", 10*i, 2)
	}
	require.NoError(t, x.Close())
	return x
}

// TestWindow: at a nanosecond a pixel every call comes as it is; at 100
// the calls narrower than a pixel merge, a slice a pixel a depth, and
// stand for every call under them; a window in the middle holds the
// calls overlapping it and their caller.
func TestWindow(t *testing.T) {
	x := known(t)
	require.Len(t, x.Threads, 1)
	th := x.Threads[0]

	w := th.Window(0, 1000, 1, 99)
	assert.Equal(t, int64(201), w.Calls)
	assert.Zero(t, w.Merged)
	require.Len(t, w.Slices, 5*201)
	assert.Equal(t, []int64{0, 0, 1000, 0, 0}, w.Slices[:5], "root: name 0, at 0, 1000 ns, depth 0")
	assert.Equal(t, []int64{1, 10, 5, 1, 0, 2, 10, 2, 2, 0}, w.Slices[15:25], "the second child and its leaf")

	w = th.Window(0, 1000, 100, 99)
	assert.Equal(t, int64(201), w.Calls, "every call is stood for")
	assert.Equal(t, int64(200), w.Merged)
	require.Len(t, w.Slices, 5*11, "root, and ten merged slices at depth 1")
	for i := 5; i < len(w.Slices); i += 5 {
		assert.Equal(t, int64(FlagMerged), w.Slices[i+4])
		assert.Equal(t, int64(1), w.Slices[i+3])
		assert.Equal(t, int64(100*(i/5-1)), w.Slices[i+1], "a merged slice starts with its first call")
		assert.Equal(t, int64(95), w.Slices[i+2], "and ends with its last")
	}

	w = th.Window(500, 600, 1, 99)
	assert.Equal(t, int64(21), w.Calls, "the root and ten children with their leaves")
	assert.Equal(t, []int64{0, 0, 1000, 0, 0, 1, 500, 5, 1, 0}, w.Slices[:10])

	assert.Empty(t, th.Window(2000, 3000, 1, 99).Slices)
	w = th.Window(0, 1000, 1, 2)
	assert.Equal(t, int64(101), w.Calls, "two rows: the root and its callees, not their leaves")
}

// TestTree: the merged tree's totals, self times and calls.
func TestTree(t *testing.T) {
	x := known(t)
	assert.Equal(t, []string{"root", "child", "leaf"}, x.Names)
	assert.Equal(t, []int64{
		0, 0, 1000, 500, 1, 0, 0, 0,
		1, 1, 500, 300, 100, 0, 0, 0,
		2, 2, 200, 200, 100, 0, 0, 0,
	}, x.Tree.Nodes)
	assert.Equal(t, int64(201), x.Calls)
}
