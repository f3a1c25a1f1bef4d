package decode

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracebeat/tracebeat/decode/traceout"

	"github.com/tracebeat/tracebeat/decode/recording"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The field numbers of Perfetto's protos (perfetto_trace.proto, package
// perfetto.protos) that this reader needs, typed here anew and not taken
// from the writer's constants: a wrong number in the writer must not be
// read back by the same wrong number.
// Wire types of the protobuf encoding.
const (
	wireVarint = 0
	wireBytes  = 2
)

const (
	ptDefaultsClockID    = 58 // TracePacketDefaults.timestamp_clock_id
	ptDefaultsEvent      = 11 // TracePacketDefaults.track_event_defaults
	ptEventCounterVal    = 30 // TrackEvent.counter_value
	ptEventDefTrack      = 11 // TrackEventDefaults.track_uuid
	ptEventNameIID       = 10 // TrackEvent.name_iid
	ptEventTrackUUID     = 11 // TrackEvent.track_uuid
	ptEventType          = 9  // TrackEvent.type
	ptInternedData       = 12 // TracePacket.interned_data
	ptInternedNames      = 2  // InternedData.event_names
	ptNameIID            = 1  // EventName.iid
	ptNameName           = 2  // EventName.name
	ptProcessName        = 6  // ProcessDescriptor.process_name
	ptProcessPid         = 1  // ProcessDescriptor.pid
	ptSequenceFlags      = 13 // TracePacket.sequence_flags
	ptSequenceID         = 10 // TracePacket.trusted_packet_sequence_id
	ptThreadName         = 5  // ThreadDescriptor.thread_name
	ptThreadPid          = 1  // ThreadDescriptor.pid
	ptThreadTid          = 2  // ThreadDescriptor.tid
	ptTimestamp          = 8  // TracePacket.timestamp
	ptTracePacket        = 1  // Trace.packet
	ptTracePacketDefault = 59 // TracePacket.trace_packet_defaults
	ptTrackCounter       = 8  // TrackDescriptor.counter
	ptTrackDescriptor    = 60 // TracePacket.track_descriptor
	ptTrackEvent         = 11 // TracePacket.track_event
	ptTrackName          = 2  // TrackDescriptor.name
	ptTrackProcess       = 3  // TrackDescriptor.process
	ptTrackThread        = 4  // TrackDescriptor.thread
	ptTrackUUID          = 1  // TrackDescriptor.uuid
)

// pfSlice is a slice as a viewer shows it: on a thread, with a name, from
// start to end (ns).
type pfSlice struct {
	Pid, Tid   int64
	Name       string
	Start, End int64
	Depth      int
}

// pfTrace is what readPerfetto makes of a trace.
type pfTrace struct {
	Slices      []pfSlice
	ThreadNames map[[2]int64]string
	ProcNames   map[int64]string
	Instants    []string
	Counters    map[string][]int64
	Packets     int
}

// readPerfetto reads a Perfetto trace with a protobuf reader of its own
// (wire format and the field numbers of Perfetto's protos), replays each
// sequence's incremental state (clock deltas, interned names, default
// track) and pairs begins with ends per track. It fails the test on what
// a reader would not accept: an end with nothing open, a name id never
// interned, an event before its sequence was cleared, a slice left open.
func readPerfetto(t testing.TB, data []byte) *pfTrace {
	t.Helper()
	out := &pfTrace{ThreadNames: map[[2]int64]string{}, ProcNames: map[int64]string{}, Counters: map[string][]int64{}}
	type seqState struct {
		cleared bool
		clock   uint64 // the incremental clock's last value
		track   uint64
		names   map[uint64]string
	}
	seqs := map[uint64]*seqState{}
	threadOf := map[uint64][2]int64{}
	counterName := map[uint64]string{}
	type open struct {
		name  string
		start int64
	}
	stacks := map[uint64][]open{}
	for _, pkt := range pbMessages(t, data, ptTracePacket) {
		out.Packets++
		f := pbFields(t, pkt)
		seqID := f.uint(ptSequenceID)
		if desc, ok := f.msg(ptTrackDescriptor); ok {
			d := pbFields(t, desc)
			uuid := d.uint(ptTrackUUID)
			if p, ok := d.msg(ptTrackProcess); ok {
				pf := pbFields(t, p)
				out.ProcNames[int64(pf.uint(ptProcessPid))] = pf.str(ptProcessName)
			}
			if th, ok := d.msg(ptTrackThread); ok {
				tf := pbFields(t, th)
				k := [2]int64{int64(tf.uint(ptThreadPid)), int64(tf.uint(ptThreadTid))}
				threadOf[uuid] = k
				if n := tf.str(ptThreadName); n != "" {
					out.ThreadNames[k] = n
				}
			}
			if _, ok := d.msg(ptTrackCounter); ok {
				counterName[uuid] = d.str(ptTrackName)
			}
			continue
		}
		flags := f.uint(ptSequenceFlags)
		s := seqs[seqID]
		if flags&traceout.SeqIncrementalCleared != 0 {
			s = &seqState{cleared: true, names: map[uint64]string{}}
			seqs[seqID] = s
			if defs, ok := f.msg(ptTracePacketDefault); ok {
				df := pbFields(t, defs)
				require.EqualValues(t, traceout.ClockDeltas, df.uint(ptDefaultsClockID), "the sequence's clock")
				ev, _ := df.msg(ptDefaultsEvent)
				s.track = pbFields(t, ev).uint(ptEventDefTrack)
			}
		}
		ev, ok := f.msg(ptTrackEvent)
		if !ok {
			continue
		}
		// 0 is a field's default: a reader cannot tell it from no
		// sequence, nor a name id 0 from none.
		require.NotZero(t, seqID, "packet %d: an event on sequence 0", out.Packets)
		require.NotNil(t, s, "packet %d: an event on sequence %d before its state was cleared", out.Packets, seqID)
		require.NotZero(t, flags&traceout.SeqNeedsIncremental, "packet %d: an event using the sequence's state says so", out.Packets)
		if in, ok := f.msg(ptInternedData); ok {
			for _, name := range pbFields(t, in).msgs(ptInternedNames) {
				nf := pbFields(t, name)
				require.NotZero(t, nf.uint(ptNameIID), "packet %d: a name interned as 0", out.Packets)
				s.names[nf.uint(ptNameIID)] = nf.str(ptNameName)
			}
		}
		s.clock += f.uint(ptTimestamp)
		ts := int64(s.clock)
		e := pbFields(t, ev)
		track := s.track
		if u, ok := e.has(ptEventTrackUUID); ok {
			track = u
		}
		name := ""
		if iid, ok := e.has(ptEventNameIID); ok {
			n, known := s.names[iid]
			require.True(t, known, "packet %d: name id %d was never interned on sequence %d", out.Packets, iid, seqID)
			name = n
		}
		switch e.uint(ptEventType) {
		case traceout.SliceBegin:
			stacks[track] = append(stacks[track], open{name, ts})
		case traceout.SliceEnd:
			st := stacks[track]
			require.NotEmpty(t, st, "packet %d: an end with no slice open on its track", out.Packets)
			top := st[len(st)-1]
			stacks[track] = st[:len(st)-1]
			k := threadOf[track]
			out.Slices = append(out.Slices, pfSlice{Pid: k[0], Tid: k[1], Name: top.name, Start: top.start, End: ts, Depth: len(st) - 1})
		case traceout.Instant:
			out.Instants = append(out.Instants, name)
		case traceout.Counter:
			out.Counters[counterName[track]] = append(out.Counters[counterName[track]], int64(e.uint(ptEventCounterVal)))
		}
	}
	for track, st := range stacks {
		require.Empty(t, st, "track %d: slices left open", track)
	}
	sortSlices(out.Slices)
	return out
}

func sortSlices(s []pfSlice) {
	slices.SortFunc(s, func(a, b pfSlice) int {
		return cmpAll(a.Pid-b.Pid, a.Tid-b.Tid, a.Start-b.Start, int64(a.Depth-b.Depth), a.End-b.End, int64(strings.Compare(a.Name, b.Name)))
	})
}

func cmpAll(ds ...int64) int {
	for _, d := range ds {
		if d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
	}
	return 0
}

// slicesOfJSON pairs the B/E and X events of decode's trace-event JSON
// into the same slices.
func slicesOfJSON(t *testing.T, data []byte) []pfSlice {
	s, _ := slicesOfJSONOrdered(t, data)
	return s
}

// slicesOfJSONOrdered also reports whether every thread's events come in
// time order. Where they do not (a buffer whose clock went backwards), a
// Perfetto trace, whose sequences count time in deltas that cannot be
// negative, shows such an event at the time of the one before it.
func slicesOfJSONOrdered(t *testing.T, data []byte) ([]pfSlice, bool) {
	t.Helper()
	var doc struct {
		TraceEvents []struct {
			Name     string
			Ph       string
			Ts, Dur  json.Number
			Pid, Tid int64
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&doc))
	var out []pfSlice
	type open struct {
		name  string
		start int64
	}
	stacks := map[[2]int64][]open{}
	xOpen := map[[2]int64][]int64{} // ends of X slices, for their depth
	// ns reads microseconds with up to three decimals exactly: a float
	// would lose the nanoseconds of times past 2^53.
	ns := func(us json.Number) int64 {
		if us == "" {
			return 0
		}
		whole, frac, _ := strings.Cut(string(us), ".")
		w, err := strconv.ParseInt(whole, 10, 64)
		require.NoError(t, err)
		f, _ := strconv.ParseInt((frac + "000")[:3], 10, 64)
		if strings.HasPrefix(whole, "-") {
			f = -f
		}
		return w*1000 + f
	}
	last := map[[2]int64]int64{}
	ordered := true
	for _, e := range doc.TraceEvents {
		k := [2]int64{e.Pid, e.Tid}
		// Every event on a thread moves its Perfetto sequence's clock,
		// counters and instants too.
		if e.Ph == "B" || e.Ph == "E" || e.Ph == "X" || e.Ph == "C" || e.Ph == "i" {
			ordered = ordered && ns(e.Ts) >= last[k]
			last[k] = max(last[k], ns(e.Ts))
		}
		switch e.Ph {
		case "B":
			stacks[k] = append(stacks[k], open{e.Name, ns(e.Ts)})
		case "E":
			st := stacks[k]
			top := st[len(st)-1]
			stacks[k] = st[:len(st)-1]
			out = append(out, pfSlice{Pid: e.Pid, Tid: e.Tid, Name: top.name, Start: top.start, End: ns(e.Ts), Depth: len(st) - 1})
		case "X":
			start, end := ns(e.Ts), ns(e.Ts)+ns(e.Dur)
			ends := xOpen[k]
			for len(ends) > 0 && ends[len(ends)-1] <= start {
				ends = ends[:len(ends)-1]
			}
			if len(ends) > 0 {
				end = min(end, ends[len(ends)-1])
			}
			out = append(out, pfSlice{Pid: e.Pid, Tid: e.Tid, Name: e.Name, Start: start, End: end, Depth: len(ends)})
			xOpen[k] = append(ends, end)
		}
	}
	sortSlices(out)
	return out, ordered
}

// withoutTimes keeps what a slice is (thread, name, depth), in an order
// of its own.
func withoutTimes(s []pfSlice) []pfSlice {
	out := make([]pfSlice, len(s))
	for i, x := range s {
		out[i] = pfSlice{Pid: x.Pid, Tid: x.Tid, Name: x.Name, Depth: x.Depth}
	}
	slices.SortFunc(out, func(a, b pfSlice) int {
		return cmpAll(a.Pid-b.Pid, a.Tid-b.Tid, int64(strings.Compare(a.Name, b.Name)), int64(a.Depth-b.Depth))
	})
	return out
}

// perfettoInputs are one input of each kind decode writes events for.
func perfettoInputs(t testing.TB) map[string][]byte {
	beat, err := os.ReadFile(filepath.Join("testdata", "sample", "beat.txt"))
	require.NoError(t, err)
	return map[string][]byte{
		"recording": writeRecording(90_000, map[int]string{0: "inflate"},
			testThread{Tid: 1, Name: "main", Records: [][2]uint64{
				{1000, enterW(1)}, {2500, enterW(2)}, {7_500, exitW(2)}, {7_500, enterW(2)}, {7_900, exitW(2)},
				{8000, enterW(recording.SectionID(0))}, {9000, exitW(recording.SectionID(0))}, {60_000, exitW(1)},
			}},
			testThread{Tid: 9, Name: "pool-1-thread-1", Lost: 7, Records: [][2]uint64{
				{3000, exitW(3)}, {4000, enterW(1)}, {4100, enterW(2)},
			}},
			// A call, then the exit of one whose enter the ring lost: it
			// encloses the call (the slices' depth is only known then).
			testThread{Tid: 11, Name: "late", Records: [][2]uint64{
				{1000, enterW(1)}, {1500, enterW(2)}, {1700, exitW(2)}, {2000, exitW(1)}, {2500, exitW(3)},
			}},
			// The same on a virtual thread, whose slices wait for its lane;
			// two exits without enter: each encloses what closed before.
			testThread{Tid: 12, Name: "vt", Virtual: true, Records: [][2]uint64{
				{1000, enterW(1)}, {1500, enterW(2)}, {1700, exitW(2)}, {2000, exitW(1)}, {2500, exitW(3)}, {2600, exitW(2)},
			}},
			// A call that takes no time, at the top.
			testThread{Tid: 13, Name: "instant", Records: [][2]uint64{{3000, enterW(1)}, {3000, exitW(1)}}}),
		"buffer text": beat,
		// Last, a call that takes no time, at the top.
		"buffer": encodeBinary(append(appLikeRecords(40), I(2, 2000), O(2, 2000)), binary.BigEndian),
		"systrace": []byte("# tracer: nop\n" +
			"  main-100 [000] ...1 1.000000: tracing_mark_write: B|100|1\n" +
			"  main-100 [000] ...1 1.000100: tracing_mark_write: B|100|2\n" +
			"  work-101 [001] ...1 1.000150: tracing_mark_write: B|100|3\n" +
			"  main-100 [000] ...1 1.000200: tracing_mark_write: E|100\n" +
			"  main-100 [000] ...1 1.000300: tracing_mark_write: C|100|queue|7\n" +
			"  main-100 [000] ...1 1.000400: tracing_mark_write: E|100\n" +
			"  work-101 [001] ...1 1.000500: tracing_mark_write: E|100\n"),
		"marker": []byte("12.000100 main-1 B|4242|2\n12.000200 main-1 B|4242|1\n12.000250 main-1 E|4242\n12.000300 main-1 E|4242\n12.000400 main-1 B|4242|3\n"),
	}
}

// TestPerfettoHasTheJSONsSlices: for every input kind decode writes
// events for, the Perfetto trace holds the slices the trace-event JSON
// holds (names, threads, nesting, times to the nanosecond), read back by
// a reader of its own that replays the format's incremental state, and
// the thread and process names. Written twice, it is the same bytes.
func TestPerfettoHasTheJSONsSlices(t *testing.T) {
	names := testNames(t)
	for kind, data := range perfettoInputs(t) {
		t.Run(kind, func(t *testing.T) {
			var js, pf, again bytes.Buffer
			_, err := Decode(bytes.NewReader(data), &js, Options{Format: FormatJSON, Names: names})
			require.NoError(t, err)
			_, err = Decode(bytes.NewReader(data), &pf, Options{Format: FormatPerfetto, Names: names})
			require.NoError(t, err)
			_, err = Decode(bytes.NewReader(data), &again, Options{Format: FormatPerfetto, Names: names})
			require.NoError(t, err)
			require.Equal(t, pf.Bytes(), again.Bytes(), "deterministic")
			want := slicesOfJSON(t, js.Bytes())
			require.NotEmpty(t, want)
			got := readPerfetto(t, pf.Bytes())
			require.Equal(t, want, got.Slices)
			for k, name := range jsonThreadNames(t, js.Bytes()) {
				require.Equal(t, name, got.ThreadNames[k], "thread %v", k)
			}
			require.Less(t, pf.Len(), js.Len(), "smaller than the JSON")
		})
	}
}

// TestPerfettoStacks: a Matrix stack report becomes a track per stack
// whose slices are its lines: nested by depth, each lasting its cost,
// siblings one after the other from their parent's start.
func TestPerfettoStacks(t *testing.T) {
	report := "0,1,1,100\n1,2,1,60\n2,3,2,10\n1,3,1,30\n0,2,1,5\n\n0,3,1,7\n"
	var pf bytes.Buffer
	res, err := Decode(strings.NewReader(report), &pf, Options{Format: FormatPerfetto, Names: testNames(t)})
	require.NoError(t, err)
	require.Equal(t, KindStack, res.Kind)
	tr := readPerfetto(t, pf.Bytes())
	ms := int64(1e6)
	name := testNames(t).Name
	want := []pfSlice{
		{Pid: 1, Tid: 1, Name: name(1), Start: 0, End: 100 * ms, Depth: 0},
		{Pid: 1, Tid: 1, Name: name(2), Start: 0, End: 60 * ms, Depth: 1},
		{Pid: 1, Tid: 1, Name: name(3), Start: 0, End: 10 * ms, Depth: 2},
		{Pid: 1, Tid: 1, Name: name(3), Start: 60 * ms, End: 90 * ms, Depth: 1},
		{Pid: 1, Tid: 1, Name: name(2), Start: 100 * ms, End: 105 * ms, Depth: 0},
		{Pid: 1, Tid: 2, Name: name(3), Start: 0, End: 7 * ms, Depth: 0},
	}
	sortSlices(want)
	require.Equal(t, want, tr.Slices)
	require.Equal(t, "stack 1: 100 ms", tr.ThreadNames[[2]int64{1, 1}])
}

// TestPerfettoCarriesNotesAndCounters: what the JSON says beside slices
// (a counter's values, the instant that marks lost records, a slice's
// unclosed mark) is in the Perfetto trace too.
func TestPerfettoCarriesNotesAndCounters(t *testing.T) {
	in := perfettoInputs(t)
	var pf bytes.Buffer
	_, err := Decode(bytes.NewReader(in["systrace"]), &pf, Options{Format: FormatPerfetto})
	require.NoError(t, err)
	require.Equal(t, []int64{7}, readPerfetto(t, pf.Bytes()).Counters["queue"])
	pf.Reset()
	_, err = Decode(bytes.NewReader(in["recording"]), &pf, Options{Format: FormatPerfetto})
	require.NoError(t, err)
	tr := readPerfetto(t, pf.Bytes())
	require.Equal(t, []string{"clock: precise, System.nanoTime() read for every record", "7 earlier records lost (buffer full)",
		`note: tid 9 "pool-1-thread-1": 7 records lost: its buffer was full, the oldest went (budget 64 MiB; -Dtracebeat.budget raises it, -Dtracebeat.mode=stream keeps the whole run)`,
		`note: tid 9 "pool-1-thread-1": 2 calls still open when the recording was written, or missing an exit record: closed at the caller's exit or at the end (args.unclosed)`},
		tr.Instants, "decode's notes are in the trace, where the viewer shows them")
	require.Equal(t, "java (pid 4242)", tr.ProcNames[1], "the process id is in its name; events carry 1")
	require.Contains(t, pf.String(), "unclosed", "the mark of a call still open at the end")
}

func jsonThreadNames(t *testing.T, data []byte) map[[2]int64]string {
	var doc struct {
		TraceEvents []struct {
			Name     string
			Ph       string
			Pid, Tid int64
			Args     map[string]any
		}
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	out := map[[2]int64]string{}
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" && e.Name == "thread_name" {
			out[[2]int64{e.Pid, e.Tid}] = fmt.Sprint(e.Args["name"])
		}
	}
	return out
}

// TestPerfettoSchema has Perfetto's own compiled protos (the PyPI package
// perfetto, with protobuf) parse every packet of each input's trace and
// check the tracks, the balance per track and the names. It needs a
// Python that has them: TRACEBEAT_PERFETTO_PYTHON, which
// scripts/perfetto-check.sh sets up (CI runs it); without it the test is
// skipped.
func TestPerfettoSchema(t *testing.T) {
	python := os.Getenv("TRACEBEAT_PERFETTO_PYTHON")
	if python == "" {
		t.Skip("TRACEBEAT_PERFETTO_PYTHON not set (scripts/perfetto-check.sh sets it)")
	}
	names := testNames(t)
	dir := t.TempDir()
	inputs := perfettoInputs(t)
	inputs["stack report"] = []byte(evilMethodIssue)
	for kind, data := range inputs {
		var pf bytes.Buffer
		_, err := Decode(bytes.NewReader(data), &pf, Options{Format: FormatPerfetto, Names: names})
		require.NoError(t, err)
		trace := filepath.Join(dir, strings.ReplaceAll(kind, " ", "-")+".pftrace")
		require.NoError(t, os.WriteFile(trace, pf.Bytes(), 0o644))
		want := readPerfetto(t, pf.Bytes()).Slices // the JSON's, as TestPerfettoHasTheJSONsSlices shows
		require.NotEmpty(t, want, kind)
		var lines []string
		for _, s := range want {
			lines = append(lines, fmt.Sprintf("%d\t%d\t%d\t%d\t%s", s.Tid, s.Start, s.End, s.Depth, s.Name))
		}
		out, err := exec.Command(python, filepath.Join("testdata", "perfetto", "check_trace.py"), trace).CombinedOutput()
		require.NoError(t, err, "%s: %s", kind, out)
		got := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Equal(t, "ok", got[len(got)-1], "%s: %s", kind, out)
		require.Equal(t, lines, got[:len(got)-1], "%s: the slices as Perfetto's protos read them", kind)
	}
}

// pbRecord is one field of a protobuf message.
type pbRecord struct {
	num   int
	value uint64 // varint fields
	bytes []byte // length-delimited fields
	wire  int
}

type pbMessage []pbRecord

// pbFields reads one message's fields (varint and length-delimited: all a
// trace of ours has; any other wire type fails the test).
func pbFields(t testing.TB, b []byte) pbMessage {
	t.Helper()
	var out pbMessage
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		require.Positive(t, n, "bad field key")
		b = b[n:]
		r := pbRecord{num: int(key >> 3), wire: int(key & 7)}
		switch r.wire {
		case wireVarint:
			r.value, n = binary.Uvarint(b)
			require.Positive(t, n, "bad varint")
			b = b[n:]
		case wireBytes:
			l, n := binary.Uvarint(b)
			require.Positive(t, n, "bad length")
			b = b[n:]
			require.LessOrEqual(t, l, uint64(len(b)), "field %d runs past its message", r.num)
			r.bytes, b = b[:l], b[l:]
		default:
			t.Fatalf("field %d: wire type %d", r.num, r.wire)
		}
		out = append(out, r)
	}
	return out
}

// pbMessages returns the messages in the repeated field num of b.
func pbMessages(t testing.TB, b []byte, num int) [][]byte { return pbFields(t, b).msgs(num) }

func (m pbMessage) msgs(num int) [][]byte {
	var out [][]byte
	for _, r := range m {
		if r.num == num && r.wire == wireBytes {
			out = append(out, r.bytes)
		}
	}
	return out
}

func (m pbMessage) msg(num int) ([]byte, bool) {
	for _, r := range m {
		if r.num == num && r.wire == wireBytes {
			return r.bytes, true
		}
	}
	return nil, false
}

func (m pbMessage) has(num int) (uint64, bool) {
	for _, r := range m {
		if r.num == num && r.wire == wireVarint {
			return r.value, true
		}
	}
	return 0, false
}

func (m pbMessage) uint(num int) uint64 { v, _ := m.has(num); return v }

func (m pbMessage) str(num int) string { b, _ := m.msg(num); return string(b) }

// TestPerfettoProcessNamedLate: a process described when its first thread
// came, and named afterwards, carries the name.
func TestPerfettoProcessNamedLate(t *testing.T) {
	var out bytes.Buffer
	w := traceout.NewPerfettoWriter(&out)
	for _, e := range []traceout.Event{
		{Ph: 'X', Name: "a", Pid: 7, Tid: 8, TsNs: 10, DurNs: 5},
		{Ph: 'X', Name: "b", Pid: 7, Tid: 9, TsNs: 10, DurNs: 5},
		{Ph: 'M', Name: "process_name", Pid: 7, Args: []traceout.Arg{traceout.StrArg("name", "app")}},
		{Ph: 'X', Name: "a", Pid: 7, Tid: 8, TsNs: 20, DurNs: 5},
	} {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	tr := readPerfetto(t, out.Bytes())
	require.Equal(t, map[int64]string{7: "app"}, tr.ProcNames)
	require.Len(t, tr.Slices, 3)
}

// TestMergeRefuses: a merge needs a recording that says where its times
// start (format 4); an older recording and a buffer are refused, as is a
// system file that is no Perfetto trace.
func TestMergeRefuses(t *testing.T) {
	system := []byte{0x0a, 0x00}
	inputs := perfettoInputs(t)
	for name, want := range map[string]string{
		"recording":   "in: --merge takes a recording of tracebeat's runtime of format 4 or later (it says where its times start on the machine's clock), not a recording of format 3",
		"buffer text": "in: --merge takes a recording of tracebeat's runtime of format 4 or later (it says where its times start on the machine's clock), not buffer-text",
	} {
		_, err := MergeSystemTrace(system, "sys", bytes.NewReader(inputs[name]), io.Discard, Options{Source: "in", Names: testNames(t)})
		assert.EqualError(t, err, want, name)
	}
	_, err := MergeSystemTrace([]byte("hello"), "sys", bytes.NewReader(inputs["recording"]), io.Discard, Options{Source: "in"})
	assert.ErrorContains(t, err, "sys: not a Perfetto trace: byte 0: field tag 0x68")
}
