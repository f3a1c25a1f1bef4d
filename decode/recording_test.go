package decode

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/decode/recording/recordingtest"

	"github.com/stretchr/testify/require"
)

// testThread is one thread of a recording built by writeRecording.
type testThread = recordingtest.Thread

// writeRecording builds a recording as the runtime's TraceFile writes it,
// in the newest version with the precise clock.
func writeRecording(end uint64, sections map[int]string, threads ...testThread) []byte {
	return writeRecordingAs(slotsVersion, recording.RecordingClock{}, end, sections, threads...)
}

// slotsVersion is the newest version that stores a thread's records as
// ring slots (version 4 stores chunks of tokens; chunked_test.go writes
// those).
const slotsVersion = recordingtest.SlotsVersion

// writeRecordingAs builds a recording of a given version (the clock is
// written from version 2 on).
func writeRecordingAs(version int, clock recording.RecordingClock, end uint64, sections map[int]string, threads ...testThread) []byte {
	return recordingtest.Write(version, clock, nil, end, sections, threads...)
}

// writeRecordingOf builds a recording that also names builds (version 3 on).
func writeRecordingOf(version int, clock recording.RecordingClock, builds []string, end uint64, sections map[int]string, threads ...testThread) []byte {
	return recordingtest.Write(version, clock, builds, end, sections, threads...)
}

// patchSlot returns data with slot i of the last n slots (the last
// thread's) set to word.
func patchSlot(data []byte, n, i int, word uint64) []byte {
	out := bytes.Clone(data)
	binary.BigEndian.PutUint32(out[len(out)-4*(n-i):], uint32(word))
	return out
}

func enterW(id int) uint64 { return uint64(id) }
func exitW(id int) uint64  { return uint64(id) | recording.ExitFlag }

func TestDecodeRecordingText(t *testing.T) {
	data := writeRecording(90_000, map[int]string{0: "inflate"},
		testThread{Tid: 1, Name: "main", Records: [][2]uint64{
			{1000, enterW(1)}, {2500, enterW(2)}, {7_500, exitW(2)}, {8000, enterW(recording.SectionID(0))}, {9000, exitW(recording.SectionID(0))}, {60_000, exitW(1)},
		}},
		// A wrapped ring: the exit of a call whose enter went, then a call
		// still open at the end.
		testThread{Tid: 9, Name: "pool-1-thread-1", Lost: 7, Records: [][2]uint64{
			{3000, exitW(3)}, {4000, enterW(1)},
		}},
	)
	names, err := ReadMethodNames(strings.NewReader("1,1,a.B run ()V\n2,1,a.B step ()V\n3,1,a.C go ()V\n"), "map")
	require.NoError(t, err)
	var out bytes.Buffer
	res, err := Decode(bytes.NewReader(data), &out, Options{Names: names})
	require.NoError(t, err)
	require.Equal(t, KindRecording, res.Kind)
	text := out.String()
	require.Contains(t, text, "tracebeat recording: pid 4242, started 2023-11-14 22:13:20.000 UTC, 0.090 ms long, 2 threads, 5 calls\n"+
		"clock: precise, System.nanoTime() read for every record\n")
	require.Contains(t, text, `  tid 1 "main": 3 calls, max depth 2`+"\n")
	require.Contains(t, text, `  tid 9 "pool-1-thread-1": 2 calls, max depth 1, 7 records lost (buffer full), 1 started before the kept records, 1 unclosed`+"\n")
	require.Contains(t, text, "stack 1 of 3, tid 9 \"pool-1-thread-1\": 86.000 µs")
	require.Contains(t, text, "59.000 µs      1  a.B.run()V")
	require.Contains(t, text, "5.000 µs      1    a.B.step()V")
	require.Contains(t, text, "1.000 µs      1    inflate")
	require.Len(t, res.Notes, 2, "%q", res.Notes)
	require.Contains(t, res.Notes[0], `tid 9 "pool-1-thread-1": 7 records lost: its buffer was full`)
	require.Contains(t, res.Notes[1], "1 call still open when the recording was written")
}

func TestDecodeRecordingJSON(t *testing.T) {
	data := writeRecording(20_000, map[int]string{0: "custom \"section\""},
		testThread{Tid: 5, Name: "worker", Records: [][2]uint64{
			{1500, enterW(recording.SectionID(0))}, {1500, enterW(7)}, {2250, exitW(7)}, {9001, exitW(recording.SectionID(0))},
		}})
	var out bytes.Buffer
	_, err := Decode(bytes.NewReader(data), &out, Options{Format: FormatJSON, IDs: true})
	require.NoError(t, err)
	want := `{"traceEvents":[` + strings.Join([]string{
		`{"name":"process_name","ph":"M","ts":0,"pid":1,"tid":0,"args":{"name":"java (pid 4242)"}}`,
		`{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":0,"args":{"name":"tracebeat"}}`,
		`{"name":"clock: precise, System.nanoTime() read for every record","ph":"i","ts":0,"pid":1,"tid":0,"args":{"resolution_ns":0}}`,
		`{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":5,"args":{"name":"worker"}}`,
		`{"name":"custom \"section\"","ph":"X","ts":1.5,"dur":7.501,"pid":1,"tid":5}`,
		`{"name":"<unknown id 7>","ph":"X","ts":1.5,"dur":0.75,"pid":1,"tid":5,"args":{"id":7}}`,
	}, ",") + `],"displayTimeUnit":"ms"}` + "\n"
	require.Equal(t, want, out.String())
}

// TestRecordingClockIsStated: every output says how the recording was
// timed, and version 1 files (before the clock was written) still read,
// as the precise clock they used.
func TestRecordingClockIsStated(t *testing.T) {
	shared := recording.RecordingClock{Shared: true, Tick: 1_000_000, ReadEvery: 64, LongestGap: 1_250_000}
	fine := recording.RecordingClock{Shared: true, Tick: 1_000_000, ReadEvery: 64, LongestGap: 600_000}
	thread := testThread{Tid: 1, Name: "main", Records: [][2]uint64{{1000, enterW(1)}, {1000, exitW(1)}}}
	tests := []struct {
		name    string
		version int
		clock   recording.RecordingClock
		line    string
		res     int64
	}{
		{"version 1", 1, recording.RecordingClock{}, "clock: precise, System.nanoTime() read for every record", 0},
		{"precise", 2, recording.RecordingClock{}, "clock: precise, System.nanoTime() read for every record", 0},
		{"shared", 2, shared, "clock: shared, read after each 1 ms tick and every 64 records; a time may be up to 1.25 ms late (the longest gap between ticks), never out of order; -Dtracebeat.clock=precise records exact times", 1_250_000},
		{"adaptive", 3, shared, "clock: shared, read after each 1 ms tick, every 64 records, and for every record while the clock thread is late; a time may be up to 1.25 ms late, never out of order; -Dtracebeat.clock=precise records exact times", 1_250_000},
		{"adaptive, fine", 3, fine, "clock: shared, read after each 1 ms tick, every 64 records, and for every record while the clock thread is late; a time may be up to 600 µs late, never out of order", 600_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := writeRecordingAs(tc.version, tc.clock, 5000, nil, thread)
			var text, js, pf bytes.Buffer
			_, err := Decode(bytes.NewReader(data), &text, Options{})
			require.NoError(t, err)
			lines := strings.Split(text.String(), "\n")
			require.Equal(t, tc.line, lines[1])
			if tc.res >= 1_000_000 {
				// Next to the numbers: the line after the clock's, and the process's name.
				require.Equal(t, "times below are rough by up to 1.25 ms: a short call may show 0, or the time of what ran before it; -Dtracebeat.clock=precise records exact times", lines[2])
			} else {
				require.NotContains(t, text.String(), "rough")
			}
			_, err = Decode(bytes.NewReader(data), &js, Options{Format: FormatJSON})
			require.NoError(t, err)
			var clock map[string]any
			for _, e := range validateTraceJSON(t, js.Bytes()) {
				if e["ph"] == "i" && e["tid"] == json.Number("0") {
					clock = e
				}
			}
			require.NotNil(t, clock, js.String())
			require.Equal(t, tc.res >= 1_000_000, strings.Contains(js.String(), `"java (pid 4242), times ± 1.25 ms (-Dtracebeat.clock=precise records exact times)"`), js.String())
			res, err := Decode(bytes.NewReader(data), &bytes.Buffer{}, Options{})
			require.NoError(t, err)
			if tc.res >= 1_000_000 {
				require.Equal(t, "times may be up to 1.25 ms late: -Dtracebeat.clock=precise records exact times", res.CoarseNote(), "the PNG's title says it")
			} else {
				require.Empty(t, res.CoarseNote())
			}
			require.Equal(t, tc.line, clock["name"])
			require.Equal(t, json.Number(strconv.FormatInt(tc.res, 10)), clock["args"].(map[string]any)["resolution_ns"])
			_, err = Decode(bytes.NewReader(data), &pf, Options{Format: FormatPerfetto})
			require.NoError(t, err)
			require.Equal(t, []string{tc.line}, readPerfetto(t, pf.Bytes()).Instants)
		})
	}
}

func TestRecordingErrors(t *testing.T) {
	good := writeRecording(10, nil, testThread{Tid: 1, Name: "main", Records: [][2]uint64{{1, enterW(1)}, {2, exitW(1)}}})
	version := bytes.Clone(good)
	version[7] = 9
	sections := bytes.Clone(good)
	copy(sections[63:], []byte{0x7f, 0, 0, 0}) // after the build count at 61
	builds := bytes.Clone(good)
	copy(builds[61:], []byte{0x7f, 0})
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated header", good[:20], "recording header: end time at byte 16: the file ends here (truncated?)"},
		{"version", version, "recording format version 9; this tracebeat reads versions 1 to 4"},
		{"huge count", sections, "2130706432 section names at byte 63 (at most 16777216 expected): damaged file?"},
		{"huge build count", builds, "32512 builds at byte 61 (at most 1024 expected): damaged file?"},
		{"trailing data", append(bytes.Clone(good), 0), "data after the last thread"},
		// good's slots end it: mark(1), enter, mark(2), exit (6 slots).
		{"half a mark", patchSlot(good, 6, 0, recording.MarkLow), "the second half of a time mark without the first: damaged file?"},
		{"untimed record", patchSlot(good, 6, 0, enterW(1)), "a record before any time mark: damaged file?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(bytes.NewReader(tc.data), &bytes.Buffer{}, Options{Source: "app.trace"})
			require.ErrorContains(t, err, "app.trace: ")
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := DecodeRecording(bufio.NewReader(bytes.NewReader(good)), &bytes.Buffer{}, "app.trace", BufferOptions{Format: FormatSystrace})
	require.ErrorContains(t, err, `format "systrace" is not supported for recordings (text, json, perfetto, art, speedscope or html)`)
}
