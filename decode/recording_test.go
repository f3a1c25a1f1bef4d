package decode

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// testThread is one thread of a recording built by writeRecording.
type testThread struct {
	tid     int64
	name    string
	lost    int64
	records [][2]uint64 // time, word
}

// writeRecording builds a recording as the runtime's TraceFile writes it.
func writeRecording(end uint64, sections map[int]string, threads ...testThread) []byte {
	var b bytes.Buffer
	be := binary.BigEndian
	put := func(v any) { binary.Write(&b, be, v) }
	str := func(s string) { put(uint16(len(s))); b.WriteString(s) }
	b.WriteString(RecordingMagic)
	put(uint16(RecordingVersion))
	put(uint64(1_700_000_000_000))
	put(end)
	put(uint64(4242))
	put(uint64(64 << 20))
	put(uint32(len(sections)))
	for i := 0; i < len(sections); i++ {
		put(uint32(i))
		str(sections[i])
	}
	put(uint32(len(threads)))
	for _, t := range threads {
		put(uint64(t.tid))
		str(t.name)
		put(uint64(t.lost))
		put(uint32(len(t.records)))
		for _, r := range t.records {
			put(r[0])
			put(uint32(r[1]))
		}
	}
	return b.Bytes()
}

func enterW(id int) uint64 { return uint64(id) }
func exitW(id int) uint64  { return uint64(id) | recordingExit }

func TestDecodeRecordingText(t *testing.T) {
	data := writeRecording(90_000, map[int]string{0: "inflate"},
		testThread{tid: 1, name: "main", records: [][2]uint64{
			{1000, enterW(1)}, {2500, enterW(2)}, {7_500, exitW(2)}, {8000, enterW(SectionID(0))}, {9000, exitW(SectionID(0))}, {60_000, exitW(1)},
		}},
		// A wrapped ring: the exit of a call whose enter went, then a call
		// still open at the end.
		testThread{tid: 9, name: "pool-1-thread-1", lost: 7, records: [][2]uint64{
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
	require.Contains(t, text, "tracebeat recording: pid 4242, started 2023-11-14 22:13:20.000 UTC, 0.090 ms long, 2 threads, 5 calls\n")
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
		testThread{tid: 5, name: "worker", records: [][2]uint64{
			{1500, enterW(SectionID(0))}, {1500, enterW(7)}, {2250, exitW(7)}, {9001, exitW(SectionID(0))},
		}})
	var out bytes.Buffer
	_, err := Decode(bytes.NewReader(data), &out, Options{Format: FormatJSON})
	require.NoError(t, err)
	want := `{"traceEvents":[
{"name":"process_name","ph":"M","ts":0,"pid":4242,"tid":0,"args":{"name":"java (pid 4242)"}},
{"name":"thread_name","ph":"M","ts":0,"pid":4242,"tid":5,"args":{"name":"worker"}},
{"name":"custom \"section\"","cat":"method","ph":"X","ts":1.5,"dur":7.501,"pid":4242,"tid":5},
{"name":"<unknown id 7>","cat":"method","ph":"X","ts":1.5,"dur":0.75,"pid":4242,"tid":5,"args":{"id":7}}
],"displayTimeUnit":"ms"}
`
	require.Equal(t, want, out.String())
}

func TestRecordingErrors(t *testing.T) {
	good := writeRecording(10, nil, testThread{tid: 1, name: "main", records: [][2]uint64{{1, enterW(1)}, {2, exitW(1)}}})
	version := bytes.Clone(good)
	version[7] = 9
	sections := bytes.Clone(good)
	copy(sections[40:], []byte{0x7f, 0, 0, 0})
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated header", good[:20], "recording header: end time at byte 16: the file ends here (truncated?)"},
		{"version", version, "recording format version 9; this tracebeat reads version 1"},
		{"huge count", sections, "2130706432 section names at byte 40 (at most 16777216 expected): damaged file?"},
		{"truncated record", good[:len(good)-3], `thread 1 (tid 1 "main"): record 2 of 2: the file ends here (truncated?)`},
		{"trailing data", append(bytes.Clone(good), 0), "data after the last thread"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(bytes.NewReader(tc.data), &bytes.Buffer{}, Options{Source: "app.trace"})
			require.ErrorContains(t, err, "app.trace: ")
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := DecodeRecording(bufio.NewReader(bytes.NewReader(good)), &bytes.Buffer{}, "app.trace", BufferOptions{Format: FormatSystrace})
	require.ErrorContains(t, err, `format "systrace" is not supported for recordings (text, json or perfetto)`)
}
