package traceout_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/traceout"
	"github.com/tracebeat/tracebeat/view"
)

// randomCalls makes threads of nested calls in the order decode writes
// them (each call before its callees): durations from none to
// milliseconds, runs of tiny calls, and paths deeper than the 40 rows
// the page draws.
func randomCalls(seed uint64, threads int) []traceout.Event {
	rng := rand.New(rand.NewPCG(seed, 7))
	names := []string{"a.A.run()V", "a.A.tick()V", "b.B.parse(I)I", "b.B.emit()V", "c.C.deep()V", "c.C.zero()V"}
	var events []traceout.Event
	var call func(tid int64, start, end int64, depth int)
	call = func(tid int64, start, end int64, depth int) {
		name := names[rng.IntN(len(names))]
		events = append(events, traceout.Event{Ph: 'X', Name: name, Tid: tid, TsNs: start, DurNs: end - start})
		if depth > 45 || end-start < 2 {
			return
		}
		at := start
		for at < end && rng.IntN(10) < 8 {
			d := min(end-at, int64(1)<<rng.IntN(24)) // 1 ns to 8 ms
			if rng.IntN(8) == 0 {
				d = 0
			}
			if depth > 30 { // a deep chain: one callee almost as long
				d = (end - at) * 9 / 10
			}
			call(tid, at, at+d, depth+1)
			at += d + int64(rng.IntN(1000))
		}
	}
	for tid := range int64(threads) {
		at := int64(rng.IntN(1000))
		for range 3 {
			d := int64(1) << (20 + rng.IntN(6))
			call(tid+1, at, at+d, 0)
			at += d + 10
		}
		// A loop of 10,000 small calls: lists of several chunks.
		events = append(events, traceout.Event{Ph: 'X', Name: names[0], Tid: tid + 1, TsNs: at, DurNs: 2_000_000})
		for i := range int64(10_000) {
			events = append(events, traceout.Event{Ph: 'X', Name: names[1+i%3], Tid: tid + 1, TsNs: at + 100 + i*150, DurNs: 40 + rng.Int64N(100)})
		}
	}
	return events
}

// lodPage is a page's levels read back: each level's lists.
type lodPage struct {
	page    *htmlPage
	chunked bool                  // a list came in more than one chunk
	lists   []map[[2]int][]string // [level][thread, depth] -> "name start+dur flags"
}

func readLevels(t *testing.T, html string) lodPage {
	t.Helper()
	p := lodPage{page: readHTML(t, html)}
	require.NotNil(t, p.page.meta.LOD)
	blocks := map[int][]byte{}
	for _, m := range blockRE.FindAllStringSubmatch(html, -1) {
		data, err := base64.StdEncoding.DecodeString(m[2])
		require.NoError(t, err)
		var id int
		fmt.Sscan(m[1], &id)
		blocks[id] = data
	}
	read := map[int]int{} // bytes of each block the chunks took
	for _, level := range p.page.meta.LOD.Levels {
		got := map[[2]int][]string{}
		for i := 0; i < len(level.Lists); {
			key := [2]int{int(level.Lists[i]), int(level.Lists[i+1])}
			n, chunks := int(level.Lists[i+2]), int(level.Lists[i+3])
			i += 4
			size := p.page.meta.LOD.Chunk
			require.Equal(t, (n+size-1)/size, chunks)
			reach := int64(math.MinInt64)
			for c := range chunks {
				block, offset, first, wantReach := int(level.Lists[i]), level.Lists[i+1], level.Lists[i+2], level.Lists[i+3]
				i += 4
				require.Equal(t, int64(read[block]), offset, "chunk %d of %v starts where the one before it in its block ended", c, key)
				chunk := blocks[block][offset:]
				var start int64
				for k := range min(size, n-size*c) {
					v, m := readSlice(t, chunk)
					chunk = chunk[m:]
					read[block] += m
					start += v[1]
					if k == 0 {
						assert.Equal(t, first, start, "chunk %d's first start", c)
					}
					reach = max(reach, start+v[2])
					got[key] = append(got[key], fmt.Sprintf("%s %d+%d f%d", p.page.meta.Names[v[0]], start, v[2], v[3]))
				}
				assert.Equal(t, wantReach, reach, "chunk %d's reach", c)
			}
		}
		p.chunked = p.chunked || hasChunks(level.Lists)
		p.lists = append(p.lists, got)
	}
	for id, data := range blocks {
		require.Equal(t, len(data), read[id], "block %d holds its chunks and nothing more", id)
	}
	return p
}

// hasChunks reports whether a level's lists have one of several chunks.
func hasChunks(lists []int64) bool {
	for i := 0; i < len(lists); i += 4 + 4*int(lists[i+3]) {
		if lists[i+3] > 1 {
			return true
		}
	}
	return false
}

// TestLevelsOfDetail: a page past its calls holds levels of detail; at
// each level, the slices it draws (the whole ones of that level and the
// coarser ones, the merged ones of that level) are exactly what tracebeat
// view's window of the whole span at that resolution holds, thread by
// thread and depth by depth, and its call tree is view's.
func TestLevelsOfDetail(t *testing.T) {
	events := randomCalls(3, 2)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the spill file goes, and must go from
	defer func(old int) { *traceout.LODBlockBytes = old }(*traceout.LODBlockBytes)
	*traceout.LODBlockBytes = 4096 // many blocks, a level's chunks over several
	var out bytes.Buffer
	w := traceout.NewHTMLWriter(&out, "levels")
	w.SetPageCalls(len(events) / 3) // past a third of them: levels
	x := view.NewIndex()
	for _, e := range events {
		require.NoError(t, w.Write(e))
		require.NoError(t, x.Write(e))
	}
	require.NoError(t, w.Close())
	require.NoError(t, x.Close())
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "the spill file is removed")
	p := readLevels(t, out.String())
	meta := p.page.meta
	assert.Equal(t, int64(len(events)), meta.LOD.Calls)
	assert.Equal(t, int64(1), meta.LOD.DetailNs, "a small trace keeps every level")
	require.Len(t, meta.Threads, len(x.Threads))

	merged := 0
	for k, level := range meta.LOD.Levels {
		for ti, th := range x.Threads {
			win := th.Window(meta.TMin, meta.TMax+1, level.PxNs, 40)
			want := map[int][]string{}
			for i := 0; i < len(win.Slices); i += 5 {
				s := win.Slices[i : i+5]
				want[int(s[3])] = append(want[int(s[3])], fmt.Sprintf("%s %d+%d f%d", x.Names[s[0]], s[1], s[2], s[4]))
			}
			got := map[int][]string{}
			for j := 0; j <= k; j++ {
				for key, list := range p.lists[j] {
					if key[0] != ti {
						continue
					}
					for _, s := range list {
						if j == k || !bytes.HasSuffix([]byte(s), []byte("f4")) {
							got[key[1]] = append(got[key[1]], s)
						}
					}
				}
			}
			for d := range got {
				slices.Sort(got[d])
				merged += len(got[d])
			}
			for d := range want {
				slices.Sort(want[d])
			}
			require.Equal(t, want, got, "level %d (%d ns a pixel), thread %d", k, level.PxNs, ti)
		}
	}
	assert.Positive(t, merged)
	assert.True(t, p.chunked, "a list of several chunks")
	assert.Greater(t, p.page.blocks, 10, "blocks of about 4 KiB")

	// The call tree: every path's total, self and calls, as view's.
	paths := func(tree []int64, names []string) map[string][3]int64 {
		out := map[string][3]int64{}
		path := []string{""}
		for i := 0; i < len(tree); i += 8 {
			p := path[tree[i]] + "/" + names[tree[i+1]]
			path = append(path, p)
			out[p] = [3]int64{tree[i+2], tree[i+3], tree[i+4]}
		}
		return out
	}
	assert.Equal(t, paths(x.Tree.Nodes, x.Names), paths(meta.Tree, meta.Names))
}

// TestPageBelowItsCalls: up to its calls, the page holds every call one
// by one, and no levels.
func TestPageBelowItsCalls(t *testing.T) {
	events := randomCalls(4, 1)
	var out bytes.Buffer
	w := traceout.NewHTMLWriter(&out, "calls")
	w.SetPageCalls(len(events))
	for _, e := range events {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	p := readHTML(t, out.String())
	assert.Nil(t, p.meta.LOD)
	assert.Len(t, p.slices["tid 1"], len(events))
}

// TestLevelsHoldSections: begin and end pairs (a systrace's sections),
// which come as they end, are lists of level 0 of their own, sorted, at
// their depths, whole at every level.
func TestLevelsHoldSections(t *testing.T) {
	var out bytes.Buffer
	w := traceout.NewHTMLWriter(&out, "sections")
	w.SetPageCalls(1)
	for _, e := range []traceout.Event{
		{Ph: 'X', Name: "call", Tid: 1, TsNs: 0, DurNs: 1000},
		{Ph: 'X', Name: "call", Tid: 1, TsNs: 2000, DurNs: 1000},
		{Ph: 'B', Name: "outer", Tid: 1, TsNs: 100},
		{Ph: 'B', Name: "inner", Tid: 1, TsNs: 200},
		{Ph: 'E', Tid: 1, TsNs: 300},
		{Ph: 'E', Tid: 1, TsNs: 900},
		{Ph: 'B', Name: "later", Tid: 1, TsNs: 50},
		{Ph: 'E', Tid: 1, TsNs: 60},
	} {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	p := readLevels(t, out.String())
	assert.Equal(t, int64(5), p.page.meta.LOD.Calls)
	var got []string
	for key, list := range p.lists[0] {
		for _, s := range list {
			if !strings.HasPrefix(s, "call ") {
				got = append(got, fmt.Sprintf("d%d %s", key[1], s))
			}
		}
	}
	slices.Sort(got)
	assert.Equal(t, []string{"d0 later 50+10 f0", "d0 outer 100+800 f0", "d1 inner 200+100 f0"}, got)
}
