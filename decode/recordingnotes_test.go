package decode

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// TestRecordingNotes: a kind's note over several threads names up to
// three, says "..." only past three, counts virtual ones only when there
// are some, gives the range when the counts differ, and points at the
// first thread's first occurrence.
func TestRecordingNotes(t *testing.T) {
	thread := func(tid int64, name string, stats PairStats, lost int64) ThreadResult {
		return ThreadResult{Thread: recording.Thread{Tid: tid, Name: name, Lost: lost}, Stats: stats}
	}
	res := &RecordingResult{Header: &recording.Recording{Budget: 64 << 20}, Threads: []ThreadResult{
		thread(1, "a", PairStats{StrayExits: 3, FirstStray: "record 4"}, 2),
		thread(2, "b", PairStats{}, 2),
		thread(3, "c", PairStats{StrayExits: 5, FirstStray: "record 9"}, 2),
	}}
	assert.Equal(t, []string{
		`3 threads (tid 1 "a", tid 2 "b", tid 3 "c"): 2 records each lost: its buffer was full, the oldest went (budget 64 MiB; -Dtracebeat.budget raises it, -Dtracebeat.mode=stream keeps the whole run)`,
		`2 threads (tid 1 "a", tid 3 "c"): 8 exit records in all (3 to 5 a thread) with no open call to match: ignored (first at record 4)`,
	}, recordingNotes(res))
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1000: "1000 bytes", 1 << 10: "1 KiB", 3 << 10: "3 KiB", 1<<10 + 1: "1025 bytes",
		1 << 20: "1 MiB", 64 << 20: "64 MiB", 1<<20 + 1<<10: "1025 KiB",
	} {
		assert.Equal(t, want, formatBytes(n), "formatBytes(%d)", n)
	}
}

// TestRecordingSummaryThreads: the summary lists threads in the
// recording's order while there are at most 20; past that the 20 with
// the most calls, and a line for the rest. No line for groups that are
// empty.
func TestRecordingSummaryThreads(t *testing.T) {
	summary := func(n int) string {
		var threads []testThread
		for i := 1; i <= n; i++ {
			th := testThread{Tid: int64(i), Name: fmt.Sprintf("t%d", i)}
			for c := range i {
				at := uint64(1000 * (c + 1))
				th.Records = append(th.Records, [2]uint64{at, enterW(1)}, [2]uint64{at + 500, exitW(1)})
			}
			threads = append(threads, th)
		}
		var out bytes.Buffer
		_, err := Decode(bytes.NewReader(writeRecording(100_000, nil, threads...)), &out, Options{})
		require.NoError(t, err)
		return out.String()
	}
	listed := func(text string) []string {
		var tids []string
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "  tid ") {
				tids = append(tids, strings.Fields(line)[1])
			}
		}
		return tids
	}
	up := func(from, to int) []string {
		var s []string
		for i := from; i <= to; i++ {
			s = append(s, fmt.Sprint(i))
		}
		return s
	}
	down := func(from, to int) []string {
		var s []string
		for i := from; i >= to; i-- {
			s = append(s, fmt.Sprint(i))
		}
		return s
	}

	text := summary(2)
	assert.Equal(t, up(1, 2), listed(text))
	assert.NotContains(t, text, "more (fewer calls each)")
	assert.NotContains(t, text, "virtual")

	text = summary(20)
	assert.Equal(t, up(1, 20), listed(text))
	assert.NotContains(t, text, "more (fewer calls each)")

	text = summary(21)
	assert.Equal(t, down(21, 2), listed(text))
	assert.Contains(t, text, "\n  1 thread more (fewer calls each): 1 call, max depth 1\n")
}
