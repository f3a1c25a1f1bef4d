package traceout_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/htmlview"
	"github.com/tracebeat/tracebeat/decode/traceout"
)

// htmlPage is a page read back as the viewer reads it: the meta block and
// each thread's slices unpacked from its blocks.
type htmlPage struct {
	meta   htmlview.Meta
	slices map[string][]string // thread name -> "name start+dur depth flags"
	blocks int
	html   string
}

var blockRE = regexp.MustCompile(`<script type="application/octet-stream" id="tb(\d+)">([^<]*)</script>`)

func readHTML(t *testing.T, page string) *htmlPage {
	t.Helper()
	p := &htmlPage{slices: map[string][]string{}, html: page}
	blocks := map[string][]byte{}
	for _, m := range blockRE.FindAllStringSubmatch(page, -1) {
		data, err := base64.StdEncoding.DecodeString(m[2])
		require.NoError(t, err)
		blocks[m[1]] = data
		p.blocks++
	}
	const open = `<script type="application/json" id="tbmeta">`
	i := strings.Index(page, open)
	require.GreaterOrEqual(t, i, 0)
	rest := page[i+len(open):]
	require.NoError(t, json.Unmarshal([]byte(rest[:strings.Index(rest, "</script>")]), &p.meta))
	for _, th := range p.meta.Threads {
		var start int64
		var got []string
		for _, b := range th.Blocks {
			data := blocks[fmt.Sprint(b)]
			for len(data) > 0 {
				v, n := readSlice(t, data)
				data = data[n:]
				start += v[1]
				got = append(got, fmt.Sprintf("%s %d+%d d%d f%d", p.meta.Names[v[0]], start, v[2], v[3]>>2, v[3]&3))
			}
		}
		if p.meta.LOD == nil { // levels of detail hold a thread's slices by level (lod_test.go)
			require.Len(t, got, th.Slices, th.Name)
		}
		p.slices[th.Name] = got
	}
	return p
}

// readSlice reads a packed slice (four varints, the second signed) and
// says how many bytes it took.
func readSlice(t *testing.T, data []byte) (v [4]int64, size int) {
	t.Helper()
	for k := range v {
		var n int
		if k == 1 {
			v[k], n = binary.Varint(data[size:])
		} else {
			var u uint64
			u, n = binary.Uvarint(data[size:])
			v[k] = int64(u)
		}
		require.Positive(t, n)
		size += n
	}
	return v, size
}

func writeHTML(t *testing.T, events []traceout.Event) *htmlPage {
	t.Helper()
	var out bytes.Buffer
	w := traceout.NewHTMLWriter(&out, "a <title>")
	for _, e := range events {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	return readHTML(t, out.String())
}

// TestHTMLWriter: slices per thread with their depth, a callee cut to its
// caller's end, the flags of an unclosed call and one started before the
// buffer, begin/end pairs (sorted by the page), a begin never ended,
// names and threads from the metadata, and the clock.
func TestHTMLWriter(t *testing.T) {
	p := writeHTML(t, []traceout.Event{
		{Ph: 'M', Name: "process_name", Pid: 1, Args: []traceout.Arg{traceout.StrArg("name", "app")}},
		{Ph: 'M', Name: "process_name", Pid: 1, Args: []traceout.Arg{traceout.StrArg("name", "later")}},
		{Ph: 'i', Name: "clock: monotonic", Pid: 1, Tid: 0},
		{Ph: 'i', Name: "clock:", Pid: 1, Tid: 0},
		{Ph: 'i', Name: "clock: other thread", Pid: 1, Tid: 5},
		{Ph: 'M', Name: "thread_name", Pid: 1, Tid: 10, Args: []traceout.Arg{traceout.StrArg("name", "main")}},
		{Ph: 'M', Name: "thread_name", Pid: 1, Tid: 20, Args: []traceout.Arg{traceout.StrArg("name", "idle: no slices, no thread in the page")}},
		{Ph: 'X', Name: "run", Pid: 1, Tid: 10, TsNs: 1000, DurNs: 9000},
		{Ph: 'X', Name: "inner", Pid: 1, Tid: 10, TsNs: 2000, DurNs: 20000},
		{Ph: 'X', Name: "</script>", Pid: 1, Tid: 10, TsNs: 3000, DurNs: -5, Args: []traceout.Arg{traceout.BoolArg("unclosed")}},
		{Ph: 'X', Name: "next", Pid: 1, Tid: 10, TsNs: 10000, DurNs: 10, Args: []traceout.Arg{traceout.BoolArg("startedBeforeBuffer"), traceout.IntArg("unclosed", 1)}},
		{Ph: 'X', Name: "run", Pid: 1, Tid: 10, TsNs: 10010, DurNs: 1},
		{Ph: 'B', Name: "outer", Pid: 1, Tid: 11, TsNs: 500},
		{Ph: 'B', Name: "sec", Pid: 1, Tid: 11, TsNs: 600},
		{Ph: 'E', Pid: 1, Tid: 11, TsNs: 700},
		{Ph: 'E', Pid: 1, Tid: 11, TsNs: 400}, // before its begin: no duration
		{Ph: 'E', Pid: 1, Tid: 11, TsNs: 900}, // nothing begun
		{Ph: 'B', Name: "open", Pid: 1, Tid: 12, TsNs: 100},
		{Ph: 'X', Name: "run", Pid: 1, Tid: 12, TsNs: 300, DurNs: 50},
	})
	assert.Equal(t, "app", p.meta.Process)
	assert.Equal(t, "clock: monotonic", p.meta.Clock)
	assert.Equal(t, "a <title>", p.meta.Title)
	assert.Contains(t, p.html, "<title>a &lt;title&gt;</title>")
	assert.NotContains(t, p.html, `"</script>"`, "a name must not end the meta block")
	assert.Equal(t, map[string][]string{
		"main": {"run 1000+9000 d0 f0", "inner 2000+8000 d1 f0", "</script> 3000+0 d2 f1", "next 10000+10 d0 f2", "run 10010+1 d0 f0"},
		// B/E slices are packed as they end: the page sorts them (Unsorted).
		"tid 11": {"sec 600+100 d1 f0", "outer 500+0 d0 f0"},
		// A begin never ended runs to the thread's last start, unclosed.
		"tid 12": {"run 300+50 d0 f0", "open 100+200 d0 f1"},
	}, p.slices)
	var unsorted []bool
	for _, th := range p.meta.Threads {
		unsorted = append(unsorted, th.Unsorted)
		assert.Equal(t, int64(1), th.Pid)
	}
	assert.Equal(t, []bool{false, true, true}, unsorted)
	// A block each for main's calls, tid 11's sections, tid 12's call and
	// its section.
	assert.Equal(t, 4, p.blocks)
}

// TestHTMLWriterLongThread: a thread's packed slices go out in blocks of
// about a MiB, the starts continuing as deltas across blocks; a duration
// whose end would pass the end of time is kept, not wrapped.
func TestHTMLWriterLongThread(t *testing.T) {
	var events []traceout.Event
	const n = 150_000
	for i := range n {
		events = append(events, traceout.Event{Ph: 'X', Name: fmt.Sprintf("m%d", i%1000), Tid: 1, TsNs: int64(i) * 1_000_000_000, DurNs: 1})
	}
	events = append(events, traceout.Event{Ph: 'X', Name: "last", Tid: 1, TsNs: n * 1_000_000_000, DurNs: math.MaxInt64})
	p := writeHTML(t, events)
	assert.Greater(t, p.blocks, 1)
	got := p.slices["tid 1"]
	require.Len(t, got, n+1)
	assert.Equal(t, "m0 0+1 d0 f0", got[0])
	assert.Equal(t, fmt.Sprintf("m999 %d+1 d0 f0", int64(n-1)*1_000_000_000), got[n-1])
	assert.Equal(t, fmt.Sprintf("last %d+%d d0 f0", int64(n)*1_000_000_000, int64(math.MaxInt64)), got[n])
}

// TestHTMLWriterEmpty: a page with nothing in it still has its meta and
// viewer.
func TestHTMLWriterEmpty(t *testing.T) {
	p := writeHTML(t, nil)
	assert.Empty(t, p.meta.Threads)
	assert.NotNil(t, p.meta.Names)
	assert.NotNil(t, p.meta.Notes, "an empty list, not null")
	assert.Contains(t, p.html, "</html>")
}

// TestHTMLWriterSpillFails: a spill file that cannot be made stops the
// page at once, naming it, not at the end of the decode.
func TestHTMLWriterSpillFails(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var out bytes.Buffer
	w := traceout.NewHTMLWriter(&out, "spill")
	var err error
	i := 0
	for ; err == nil && i < 1_000_000; i++ {
		err = w.Write(traceout.Event{Ph: 'X', Name: fmt.Sprintf("m%d", i%1000), Tid: 1, TsNs: int64(i) * 1000, DurNs: 1})
	}
	require.ErrorContains(t, err, "the page's spill file")
	assert.Less(t, i, 200_000, "it stopped when the first block could not be spilled")
	require.ErrorContains(t, w.Close(), "the page's spill file")
}
