package decode

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// FuzzDecode: every input decode reads (runtime recordings, Matrix stack
// reports and buffers, systrace and trace_marker text) is refused with an
// error or decoded; a JSON decode is valid JSON whose begin and end events
// pair on every track, and decoding is deterministic. Seeded from the
// inputs in testdata.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "sample", "*"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil && len(data) < 1<<20 {
			f.Add(data)
		}
	}
	f.Add([]byte("# tracer: nop\n  main-1 [000] ...1 1.000000: tracing_mark_write: B|1|2\n  main-1 [000] ...1 1.500000: tracing_mark_write: E|1\n"))
	f.Add([]byte("12.000100 main-1 B|4242|2\n12.000200 main-1 E|4242\n"))
	f.Add([]byte("0,1048574,1,803\n1,2,1,803\n2,3,1,800\n"))
	f.Add([]byte(evilMethodIssue))
	f.Add(encodeBinary(appLikeRecords(8), binary.LittleEndian))
	for _, data := range perfettoInputs(f) {
		f.Add(data)
	}
	thread := testThread{Tid: 1, Name: "main", Records: [][2]uint64{{10, enterW(1)}, {10, enterW(2)}, {30, exitW(2)}, {40, exitW(1)}, {50, exitW(3)}}}
	f.Add(writeRecordingAs(1, recording.RecordingClock{}, 60, nil, thread))
	f.Add(writeRecordingAs(2, recording.RecordingClock{Shared: true, Tick: 1e6, ReadEvery: 64, LongestGap: 2e6}, 60, nil, thread))
	names := testNames(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		_, err := Decode(bytes.NewReader(data), &out, Options{Format: FormatJSON, Names: names, Source: "fuzz"})
		if err != nil {
			return
		}
		if !json.Valid(out.Bytes()) {
			t.Fatalf("decode wrote invalid JSON:\n%.500s", out.Bytes())
		}
		var doc struct {
			TraceEvents []struct {
				Ph  string
				Pid int64
				Tid int64
			}
			Stacks json.RawMessage
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("decode's JSON does not read: %v", err)
		}
		open := map[[2]int64]int{}
		for _, e := range doc.TraceEvents {
			switch e.Ph {
			case "B":
				open[[2]int64{e.Pid, e.Tid}]++
			case "E":
				k := [2]int64{e.Pid, e.Tid}
				if open[k] == 0 {
					t.Fatalf("an end event without a begin on pid %d tid %d", e.Pid, e.Tid)
				}
				open[k]--
			}
		}
		for k, n := range open {
			if n != 0 {
				t.Fatalf("%d begin events left open on pid %d tid %d", n, k[0], k[1])
			}
		}
		var again bytes.Buffer
		if _, err := Decode(bytes.NewReader(data), &again, Options{Format: FormatJSON, Names: names, Source: "fuzz"}); err != nil || !bytes.Equal(out.Bytes(), again.Bytes()) {
			t.Fatalf("a second decode differs (%v)", err)
		}
		// The Perfetto trace of the same input reads back (balanced per
		// track, names interned) to the JSON's slices.
		var pf bytes.Buffer
		res, err := Decode(bytes.NewReader(data), &pf, Options{Format: FormatPerfetto, Names: names, Source: "fuzz"})
		if err != nil {
			t.Fatalf("decoded to JSON, not to Perfetto: %v", err)
		}
		got := readPerfetto(t, pf.Bytes())
		if res.Kind != KindStack {
			want, ordered := slicesOfJSONOrdered(t, out.Bytes())
			if !ordered { // times clamped in the Perfetto trace: compare the rest
				want, got.Slices = withoutTimes(want), withoutTimes(got.Slices)
			}
			if slices.ContainsFunc(want, func(s pfSlice) bool { return s.End == s.Start }) {
				// Times cannot nest slices of no length, and each writer
				// reads them forward from its own (clamped) times: compare
				// what the slices are.
				want, got.Slices = withoutDepths(want), withoutDepths(got.Slices)
			}
			if !slices.Equal(want, got.Slices) {
				t.Fatalf("the Perfetto trace holds other slices than the JSON:\njson     %v\nperfetto %v", want, got.Slices)
			}
			// What --png draws from: the same slices and depths.
			sink := &sliceRecorder{threads: map[[2]int64]string{}, lifts: map[[2]int64]int{}}
			if _, err := Decode(bytes.NewReader(data), sink, Options{Format: FormatJSON, Names: names, Source: "fuzz"}); err != nil {
				t.Fatalf("decoded to JSON, not to slices: %v", err)
			}
			drawn := sink.final()
			if !ordered {
				drawn = withoutTimes(drawn)
			}
			if slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "time went backwards") }) {
				// The records say who called whom, the times say
				// otherwise: the JSON nests by time, a recording's sink by
				// the records. Compare what the slices are.
				want, drawn = withoutDepths(withoutTimes(want)), withoutDepths(withoutTimes(drawn))
			}
			if slices.ContainsFunc(want, func(s pfSlice) bool { return s.End == s.Start }) {
				// Times cannot nest slices of no length: the JSON's depth
				// for them is a viewer's reading, a recording's sink gets
				// the records' own. Compare what the slices are.
				want, drawn = withoutDepths(want), withoutDepths(drawn)
			}
			if !slices.Equal(want, drawn) {
				t.Fatalf("a SliceSink got other slices than the JSON:\njson   %v\nslices %v", want, drawn)
			}
		}
	})
}

// withoutDepths keeps what a slice is but its depth, sorted.
func withoutDepths(s []pfSlice) []pfSlice {
	out := make([]pfSlice, len(s))
	for i, x := range s {
		x.Depth = 0
		out[i] = x
	}
	sortSlices(out)
	return out
}
