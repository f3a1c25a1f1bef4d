package decode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"

	"github.com/stretchr/testify/require"
)

// virtualRecording is a recording of main and n virtual threads, each
// running one call of 1 µs; at most concurrent of them at once (n/concurrent
// waves); the first lost of them lost 2 records each.
func virtualRecording(n, concurrent, lost int) []byte {
	threads := []testThread{{Tid: 1, Name: "main", Records: [][2]uint64{{0, enterW(1)}, {uint64(n) * 1000, exitW(1)}}}}
	for i := 0; i < n; i++ {
		start := uint64(i/concurrent) * 2000
		th := testThread{Tid: int64(100 + i), Virtual: true, Records: [][2]uint64{{start, enterW(2)}, {start + 500, enterW(3)}, {start + 900, exitW(3)}, {start + 1000, exitW(2)}}}
		if i < lost {
			th.Lost = 2
		}
		if i == 7 {
			th.Name = "named-vt"
		}
		threads = append(threads, th)
	}
	return writeRecordingOf(slotsVersion, recording.RecordingClock{}, nil, uint64(n)*1000+10, nil, threads...)
}

// TestVirtualThreadsAreGrouped: many virtual threads give a summary of a
// few lines and a note per kind, and in JSON and Perfetto they run on lanes
// of a process of their own, about as many lanes as ran at once, each
// slice naming its thread.
func TestVirtualThreadsAreGrouped(t *testing.T) {
	const n, concurrent, lost = 3000, 4, 2500
	data := virtualRecording(n, concurrent, lost)
	names := testNames(t)

	var text bytes.Buffer
	res, err := Decode(bytes.NewReader(data), &text, Options{Names: names})
	require.NoError(t, err)
	require.Len(t, res.Notes, 1, "one note for the lost records of 2,500 threads: %q", res.Notes)
	require.Equal(t, `2500 threads (2500 virtual; virtual tid 100 "", virtual tid 101 "", virtual tid 102 "", ...): 2 records each lost: its buffer was full, the oldest went (budget 64 MiB; -Dtracebeat.budget raises it, -Dtracebeat.mode=stream keeps the whole run)`, res.Notes[0])
	require.Contains(t, text.String(), "3001 threads (3000 virtual), 6001 calls\n")
	require.Contains(t, text.String(), "\n  3000 virtual threads: 6000 calls, max depth 2, 5000 records lost (buffer full)\n")
	require.Less(t, strings.Count(text.String(), "\n"), 60, text.String())

	var js bytes.Buffer
	_, err = Decode(bytes.NewReader(data), &js, Options{Names: names, Format: FormatJSON})
	require.NoError(t, err)
	lanes := map[int64]bool{}
	vtids := map[int64]bool{}
	var group string
	groups := 0
	for _, e := range validateTraceJSON(t, js.Bytes()) {
		pid, _ := e["pid"].(json.Number).Int64()
		tid, _ := e["tid"].(json.Number).Int64()
		switch {
		case e["ph"] == "M" && e["name"] == "process_name" && pid == virtualPid:
			group = e["args"].(map[string]any)["name"].(string)
			groups++
		case e["ph"] == "X" && pid == virtualPid:
			lanes[tid] = true
			args := e["args"].(map[string]any)
			vt, _ := args["vtid"].(json.Number).Int64()
			vtids[vt] = true
			if vt == 107 {
				require.Equal(t, "named-vt", args["thread"])
			}
		case e["ph"] == "X":
			require.Equal(t, int64(1), tid, "only main keeps a track of its own")
		}
	}
	require.Equal(t, "virtual threads of java (pid 4242)", group)
	require.Equal(t, 1, groups, "the virtual threads' process is named once")
	require.Len(t, vtids, n)
	require.Len(t, lanes, concurrent, "as many lanes as ran at once")

	var pf bytes.Buffer
	_, err = Decode(bytes.NewReader(data), &pf, Options{Names: names, Format: FormatPerfetto})
	require.NoError(t, err)
	tr := readPerfetto(t, pf.Bytes())
	require.Equal(t, "virtual threads of java (pid 4242)", tr.ProcNames[virtualPid])
	perLane := map[int64]int{}
	for _, s := range tr.Slices {
		if s.Pid == virtualPid {
			perLane[s.Tid]++
		}
	}
	require.Len(t, perLane, concurrent)
	for lane, count := range perLane {
		require.Equal(t, 2*n/concurrent, count, "lane %d", lane)
		require.Equal(t, laneName(int(lane)), tr.ThreadNames[[2]int64{virtualPid, lane}])
	}

	// The PNG's slices: the same lanes.
	sink := &sliceRecorder{threads: map[[2]int64]string{}, lifts: map[[2]int64]int{}}
	_, err = Decode(bytes.NewReader(data), sink, Options{Names: names, Format: FormatJSON})
	require.NoError(t, err)
	drawn := map[int64]int{}
	for _, s := range sink.final() {
		if s.Pid == virtualPid {
			drawn[s.Tid]++
		}
	}
	require.Equal(t, perLane, drawn)
}

// TestLanesReuseTheFirstFreeLane: a thread goes to a lane whose last
// thread ended by its start, else to a new one.
func TestLanesReuseTheFirstFreeLane(t *testing.T) {
	var l laneSet
	for i, tc := range []struct {
		start, end uint64
		lane       int
		fresh      bool
	}{
		{0, 10, 1, true},
		{5, 20, 2, true},
		{10, 15, 1, false}, // lane 1 ended at 10
		{12, 30, 3, true},
		{21, 25, 1, false}, // lanes 1 (15) and 2 (20) are free: the one that ended first
		{21, 40, 2, false},
	} {
		lane, fresh := l.place(tc.start, tc.end)
		require.Equal(t, tc.lane, lane, "thread %d", i)
		require.Equal(t, tc.fresh, fresh, "thread %d", i)
	}
	require.Equal(t, fmt.Sprintf("virtual threads %d", 3), laneName(3))
}
