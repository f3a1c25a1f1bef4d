package decode

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
	rt "github.com/tracebeat/tracebeat/decode/recording/recordingtest"
)

// reportNames: main calls slow twice; slow calls load and parse.
const reportNames = "1,1,a.B main ()V\n2,1,a.B slow ()V\n3,1,a.B load ()V\n4,1,a.B parse ()V\n5,1,a.C tick ()V\n"

// reportRecording is a report as the runtime writes one (kind 3): main
// (tid 1) enters main at 1 µs, then slow at 2 µs (done at 10 µs, calling
// load), then slow again at 20 µs calling load (300 µs) and parse (400
// µs), out at 732 µs (unless open: a stall's call, still running at the
// end); another thread (tid 2) ticks meanwhile.
func reportRecording(rep recording.Report, word uint32, open bool) []byte {
	f := rt.NewV4(recording.KindReport)
	sections := &rt.Payload{}
	sections.U32(2)
	for i, name := range []string{"cold start com.app.Main", "warm start com.app.Second"} {
		sections.U32(uint32(i))
		sections.Str(name)
	}
	f.Chunk(rt.ChunkSections, sections.B)
	tk := (&rt.Tokens{}).Enter(1).Time(1_000).
		Enter(2).Leaf(3).Time(8_000).Exits(1). // the first slow, at 2 µs
		Time(10_000).Enter(2).                 // the second, at 20 µs
		Enter(3).Time(300_000).Exits(1).
		Enter(4).Time(400_000).Exits(1).Time(12_000)
	records := uint32(12)
	if !open {
		tk.Exits(2).Time(0) // slow and main
		records += 2
	}
	f.Chunk(rt.ChunkData, rt.Data(0, 1_000, 712_000, 0,
		rt.Block{Tid: 1, Name: "main", Records: records, T0: 1_000, Tokens: tk.B},
		rt.Block{Tid: 2, Name: "ticker", Records: 2, T0: 5_000, Tokens: (&rt.Tokens{}).Enter(5).Time(100).Exits(1).B}))
	f.Chunk(rt.ChunkReport, rt.Report(rep, word))
	f.Chunk(rt.ChunkFooter, rt.Footer(800_000, 0))
	return f.Bytes()
}

func decodeReport(t *testing.T, data []byte, format Format, maxStack int) string {
	t.Helper()
	names, err := ReadMethodNames(strings.NewReader(reportNames), "map")
	require.NoError(t, err)
	var out bytes.Buffer
	res, err := Decode(bytes.NewReader(data), &out, Options{Names: names, Format: format, MaxStack: maxStack})
	require.NoError(t, err)
	require.Equal(t, KindRecording, res.Kind)
	return out.String()
}

// The report's call as the text shows it: main above it, and the tree of
// the second slow (load, then parse, the key), returned or still open.
const (
	slowCallStack = `called from: a.B.main()V
the call, as Matrix reports it (trimmed to 30 calls): 712.000 µs, 3 lines, stackKey 4|
key method: 4 a.B.parse()V
         cost  count  method
   712.000 µs      1  a.B.slow()V
   300.000 µs      1    a.B.load()V
*  400.000 µs      1    a.B.parse()V

`
	stalledCallStack = `called from: a.B.main()V
the call, as Matrix reports it (trimmed to 30 calls): 780.000 µs, 3 lines, stackKey 4|
key method: 4 a.B.parse()V
         cost  count  method
   780.000 µs      1  a.B.slow()V  [no exit recorded]
   300.000 µs      1    a.B.load()V
*  400.000 µs      1    a.B.parse()V

`
	noStack = "the report's records do not hold the call's start (its thread's ring had lost it): no stack\n\n"
)

// TestReportKinds: what a report says of itself, kind by kind, and the
// call's tree: the second call of slow (the one entered at the report's
// time, not the first), rebuilt from depth 0, with main above it.
func TestReportKinds(t *testing.T) {
	for _, tc := range []struct {
		name string
		rep  recording.Report
		word uint32
		open bool
		want string
	}{
		{"slow", recording.Report{Kind: recording.ReportSlow, Entered: 20_000, End: 732_000, Threshold: 500_000_000}, 2, false,
			`tracebeat report: a slow call: a.B.slow()V took 0.712 ms on tid 1 "main" (over 500 ms), from 0.020 ms to 0.732 ms after the start` + "\n" + slowCallStack},
		{"stall", recording.Report{Kind: recording.ReportStall, Entered: 20_000, End: 790_000, Threshold: 700_000}, 2, true,
			`tracebeat report: a stall: tid 1 "main" was stuck in a.B.slow()V for 0.770 ms when the report was written (over 700 µs), from 0.020 ms to 0.790 ms after the start; the call was still open` + "\n" + stalledCallStack},
		{"anr", recording.Report{Kind: recording.ReportANR, Entered: 20_000, End: 790_000, Threshold: 5_000_000_000}, 2, true,
			`tracebeat report: an ANR: the main looper's a.B.slow()V had run for 0.770 ms on tid 1 "main" when the report was written (over 5 s), from 0.020 ms to 0.790 ms after the start; it was still running` + "\n" + stalledCallStack},
		{"a stall whose enter the ring lost", recording.Report{Kind: recording.ReportStall, Entered: 20_000, End: 790_000, Threshold: 700_000}, 0xFFFFFFFF, true,
			`tracebeat report: a stall: tid 1 "main" was stuck in a call whose start its thread's ring no longer held for 0.770 ms when the report was written (over 700 µs), from 0.020 ms to 0.790 ms after the start; the call was still open` + "\n" + noStack},
		{"an enter at another time", recording.Report{Kind: recording.ReportSlow, Entered: 21_000, End: 732_000, Threshold: 700_000}, 2, false,
			`tracebeat report: a slow call: a.B.slow()V took 0.711 ms on tid 1 "main" (over 700 µs), from 0.021 ms to 0.732 ms after the start` + "\n" + noStack},
		{"cold start", recording.Report{Kind: recording.ReportStartup, Entered: 300_000, End: 790_000, Threshold: 120_000_000}, 1 << 30, false,
			`tracebeat report: a cold start: 0.790 ms from the first traced call to the first focus of com.app.Main, on tid 1 "main"
  the process's start to the first traced call: 120.000 ms
  the application (to the end of the main-looper message that made it): 0.300 ms
  the first Activity (to its first focus): 0.490 ms

`},
		{"cold start of unknown phases", recording.Report{Kind: recording.ReportStartup, End: 790_000}, 1 << 30, false,
			`tracebeat report: a cold start: 0.790 ms from the first traced call to the first focus of com.app.Main, on tid 1 "main"
  the process's start to the first traced call: unknown (the platform does not say, before API 24)
  the application and the first Activity, together (the main looper's messages were not seen): 0.790 ms

`},
		{"warm start", recording.Report{Kind: recording.ReportWarm, Entered: 300_000, End: 790_000}, 1<<30 | 1, false,
			`tracebeat report: a warm start: 0.490 ms from the creation of com.app.Second to its first focus, on tid 1 "main", from 0.300 ms to 0.790 ms after the start

`},
		{"a kind decode does not know", recording.Report{Kind: 9, Entered: 20_000, End: 732_000}, 2, false,
			`tracebeat report of kind 9 on tid 1 "main", from 0.020 ms to 0.732 ms after the start` + "\n" + slowCallStack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.rep.Tid, tc.rep.Thread, tc.rep.To = 1, "main", 800_000
			text := decodeReport(t, reportRecording(tc.rep, tc.word, tc.open), FormatText, 0)
			from := strings.Index(text, "tracebeat report")
			to := strings.Index(text, "the report's window, every thread:\n")
			require.True(t, from > 0 && to > from, text)
			assert.Equal(t, tc.want, text[from:to])
			assert.Contains(t, text[to:], `tid 2 "ticker": 1 call`, "every thread's calls of the window follow")
		})
	}
}

// The call's tree is trimmed to MaxStack calls, its costliest.
func TestReportTrimsTheCall(t *testing.T) {
	rep := recording.Report{Kind: recording.ReportSlow, Tid: 1, Thread: "main", Entered: 20_000, End: 732_000, Threshold: 700_000}
	text := decodeReport(t, reportRecording(rep, 2, false), FormatText, 2)
	assert.Contains(t, text, "the call, as Matrix reports it (trimmed to 2 calls): 712.000 µs, 2 lines, stackKey 4|\n"+
		"key method: 4 a.B.parse()V\n"+
		"         cost  count  method\n"+
		"   712.000 µs      1  a.B.slow()V\n"+
		"*  400.000 µs      1    a.B.parse()V\n\n")
}

// A report on a thread the records do not hold has no stack; the event
// formats carry no report text.
func TestReportElsewhere(t *testing.T) {
	rep := recording.Report{Kind: recording.ReportSlow, Tid: 7, Thread: "gone", Entered: 20_000, End: 732_000, Threshold: 700_000}
	text := decodeReport(t, reportRecording(rep, 2, false), FormatText, 0)
	assert.Contains(t, text, `tracebeat report: a slow call: a.B.slow()V took 0.712 ms on tid 7 "gone" (over 700 µs), from 0.020 ms to 0.732 ms after the start`+"\n"+
		noStack+"the report's window, every thread:\n")
	assert.NotContains(t, text, "called from")

	rep.Tid = 1
	js := decodeReport(t, reportRecording(rep, 2, false), FormatJSON, 0)
	validateTraceJSON(t, []byte(js))
	assert.NotContains(t, js, "tracebeat report")
	assert.Contains(t, js, `"a.B.parse()V"`)
}

// A write that fails while a version 4 recording's records are read (here
// the sorted runs' spill, to a folder that is not there) is the decode's
// error. (That the reader returns it at once rather than noting the block
// as damaged is recording's TestV4CallbackErrors: here the spill's error
// would also surface when the runs are merged.)
func TestRecordingWriteErrorIsTheDecodesError(t *testing.T) {
	rep := recording.Report{Kind: recording.ReportSlow, Tid: 1, Thread: "main", Entered: 20_000, End: 732_000}
	data := reportRecording(rep, 2, false)
	var out bytes.Buffer
	missing := t.TempDir() + "/missing"
	_, err := DecodeRecording(bufio.NewReader(bytes.NewReader(data)), &out, "r.trace", BufferOptions{Format: FormatJSON, TempDir: missing, SortChunk: 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), missing)
	assert.NotContains(t, err.Error(), "damaged")
}

// A stream whose damaged chunk took a call's exit: the call closes where
// the next block says it is no longer open, marked as without its exit,
// and the calls the block says are open begin at their own times.
func TestRecordingClosesWhatADamagedChunkTook(t *testing.T) {
	f := rt.NewV4(recording.KindStream)
	f.Chunk(rt.ChunkData, rt.Data(0, 10, 10, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 10, Tokens: (&rt.Tokens{}).Enter(1).Enter(2).B}))
	bad := f.Chunk(rt.ChunkData, rt.Data(1, 20, 30, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 20,
		Open: []rt.Open{{Word: 1, At: 10}, {Word: 2, At: 10}}, Tokens: (&rt.Tokens{}).Exits(1).Time(10).Enter(3).B}))
	f.Chunk(rt.ChunkData, rt.Data(2, 40, 50, 0, rt.Block{Tid: 1, Name: "main", Records: 2, T0: 40,
		Open: []rt.Open{{Word: 1, At: 10}, {Word: 3, At: 30}}, Tokens: (&rt.Tokens{}).Time(10_000).Exits(2).B}))
	f.Chunk(rt.ChunkFooter, rt.Footer(20_000, 0))
	data := f.Bytes()
	data[bad+rt.ChunkHeaderLen+3] ^= 0xFF
	text := decodeReport(t, data, FormatText, 0)
	assert.Contains(t, text, `tid 1 "main": 3 calls, max depth 2, 1 unclosed`)
	js := decodeReport(t, data, FormatJSON, 0)
	validateTraceJSON(t, []byte(js))
	assert.Contains(t, js, `{"name":"a.B.main()V","ph":"X","ts":0.01,"dur":10.03,"pid":1,"tid":1},`+
		`{"name":"a.B.slow()V","ph":"X","ts":0.01,"dur":0.02,"pid":1,"tid":1,"args":{"unclosed":true}},`+
		`{"name":"a.B.load()V","ph":"X","ts":0.03,"dur":10.01,"pid":1,"tid":1}`)
	assert.Contains(t, js, fmt.Sprintf(`"input: the chunk at byte %d (records) is damaged (its checksum differs): skipped"`, bad))
}
