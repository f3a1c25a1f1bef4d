package flamepng

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCollectorLifts: a lift moves the thread's slices so far one row
// down, not those that come after it; the thread's depth counts it.
func TestCollectorLifts(t *testing.T) {
	c, err := NewCollector(t.TempDir())
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.Slice(1, 1, "a", 0, 10, 0, false))
	require.NoError(t, c.Slice(1, 1, "b", 2, 5, 1, true))
	c.Lift(1, 1)
	c.Lift(1, 1)
	require.NoError(t, c.Slice(1, 1, "c", 20, 30, 0, false))
	require.NoError(t, c.Slice(1, 2, "d", 20, 15, 0, false)) // an end before its start is the start
	type got struct {
		track, depth int
		name         string
		unclosed     bool
		start, end   int64
	}
	var all []got
	byIndex := []*trackInfo{c.tracks[trackKey{1, 1}], c.tracks[trackKey{1, 2}]}
	require.NoError(t, c.each(byIndex, func(track uint32, depth int, name uint32, unclosed bool, start, end int64) {
		all = append(all, got{int(track), depth, c.list[name], unclosed, start, end})
	}))
	assert.Equal(t, []got{{0, 2, "a", false, 0, 10}, {0, 3, "b", true, 2, 5}, {0, 0, "c", false, 20, 30}, {1, 0, "d", false, 20, 20}}, all)
	assert.Equal(t, 3, byIndex[0].depth())
	assert.Equal(t, 0, byIndex[1].depth())
	assert.Equal(t, []int64{0, 30}, []int64{c.minNs, c.maxNs})
	_, err = c.Write([]byte("x"))
	assert.Error(t, err)
}

// TestReadTraceEventsOrder: tracks sorted by pid then tid; slices of the
// same span in file order; an event that is not one names its number.
func TestReadTraceEventsOrder(t *testing.T) {
	in := `{"traceEvents":[
{"ph":"X","name":"b","pid":2,"tid":1,"ts":0,"dur":5},
{"ph":"X","name":"first","pid":1,"tid":5,"ts":0,"dur":5},
{"ph":"X","name":"second","pid":1,"tid":5,"ts":0,"dur":5},
{"ph":"X","name":"short","pid":1,"tid":5,"ts":0,"dur":2},
{"ph":"X","name":"a","pid":1,"tid":3,"ts":1,"dur":1}]}`
	tracks, err := ReadTraceEvents(strings.NewReader(in))
	require.NoError(t, err)
	var keys []string
	for _, tr := range tracks {
		keys = append(keys, fmt.Sprintf("%d/%d", tr.Pid, tr.Tid))
	}
	assert.Equal(t, []string{"1/3", "1/5", "2/1"}, keys)
	var names []string
	for _, s := range tracks[1].Slices {
		names = append(names, fmt.Sprintf("%s@%d", s.Name, s.Depth))
	}
	assert.Equal(t, []string{"first@0", "second@1", "short@2"}, names)
	_, err = ReadTraceEvents(strings.NewReader(`{"traceEvents":[{"ph":"X"},{"name":1}]}`))
	assert.ErrorContains(t, err, "event 2")
}
