package traceout_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// artTrace is an Android method trace read back by the layout of
// Android's dmtrace format (version 3): the text part's sections, then a
// 32-byte header and 10-byte records (thread u2, method value u4, time u4,
// little-endian). Read here field by field, not with the writer's code.
type artTrace struct {
	version  []string          // the lines of *version
	threads  map[string]string // id -> name
	methods  map[uint32]string // method value -> "class method desc"
	header   []byte
	records  []artRecord
	byAction map[uint32]int
}

type artRecord struct {
	thread uint16
	method uint32 // with the action in its low two bits
	us     uint32
}

func (r artRecord) String() string {
	actions := []string{"enter", "exit", "unwind", "?"}
	return fmt.Sprintf("%d %s 0x%x @%d", r.thread, actions[r.method&3], r.method&^3, r.us)
}

func readArt(t *testing.T, data []byte) *artTrace {
	t.Helper()
	end := bytes.Index(data, []byte("*end\n"))
	require.GreaterOrEqual(t, end, 0, "no *end line")
	tr := &artTrace{threads: map[string]string{}, methods: map[uint32]string{}, byAction: map[uint32]int{}}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data[:end]))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "*") {
			section = line
			continue
		}
		switch section {
		case "*version":
			tr.version = append(tr.version, line)
		case "*threads":
			id, name, ok := strings.Cut(line, "\t")
			require.True(t, ok, line)
			tr.threads[id] = name
		case "*methods":
			f := strings.Split(line, "\t")
			require.Len(t, f, 5, "a method line is value, class, method, descriptor and an empty source: %q", line)
			var v uint32
			_, err := fmt.Sscanf(f[0], "0x%08x", &v)
			require.NoError(t, err)
			tr.methods[v] = f[1] + " " + f[2] + " " + f[3]
		}
	}
	bin := data[end+len("*end\n"):]
	require.GreaterOrEqual(t, len(bin), 32)
	tr.header = bin[:32]
	require.Equal(t, "SLOW", string(bin[:4]))
	require.Equal(t, uint16(3), binary.LittleEndian.Uint16(bin[4:]), "version")
	require.Equal(t, uint16(32), binary.LittleEndian.Uint16(bin[6:]), "header size")
	require.Equal(t, uint16(10), binary.LittleEndian.Uint16(bin[16:]), "record size")
	recs := bin[32:]
	require.Zero(t, len(recs)%10)
	for i := 0; i < len(recs); i += 10 {
		r := artRecord{binary.LittleEndian.Uint16(recs[i:]), binary.LittleEndian.Uint32(recs[i+2:]), binary.LittleEndian.Uint32(recs[i+6:])}
		tr.records = append(tr.records, r)
		tr.byAction[r.method&3]++
	}
	return tr
}

func writeArt(t *testing.T, events []traceout.Event) *artTrace {
	t.Helper()
	var out bytes.Buffer
	w := traceout.NewArtWriter(&out)
	for _, e := range events {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	return readArt(t, out.Bytes())
}

// TestArtWriter: complete calls nest and close at their ends, an
// unclosed one with an unwind; begin/end pairs; threads and the process
// id from the metadata; method names split into class, method and
// descriptor; times in µs.
func TestArtWriter(t *testing.T) {
	events := []traceout.Event{
		{Ph: 'M', Name: "process_name", Pid: 1, Args: []traceout.Arg{traceout.StrArg("name", "app (pid 4242)")}},
		{Ph: 'M', Name: "process_name", Pid: 1, Args: []traceout.Arg{traceout.StrArg("name", "other (pid 7)")}},
		{Ph: 'M', Name: "thread_name", Pid: 1, Tid: 10, Args: []traceout.Arg{traceout.StrArg("name", "main\tthread\n")}},
		{Ph: 'X', Name: "a.B.run(I)V", Pid: 1, Tid: 10, TsNs: 1_000, DurNs: 10_000},
		{Ph: 'X', Name: "a.B.inner()V", Pid: 1, Tid: 10, TsNs: 2_000, DurNs: 3_000},
		{Ph: 'X', Name: "a.B.thrown()V", Pid: 1, Tid: 10, TsNs: 6_000, DurNs: 1_000, Args: []traceout.Arg{traceout.BoolArg("unclosed")}},
		{Ph: 'B', Name: "section", Pid: 1, Tid: 11, TsNs: 3_500},
		{Ph: 'B', Name: "noDot(x)", Pid: 1, Tid: 11, TsNs: 3_600},
		{Ph: 'E', Pid: 1, Tid: 11, TsNs: 4_999},
		{Ph: 'E', Pid: 1, Tid: 11, TsNs: 20_000},
		{Ph: 'E', Pid: 1, Tid: 11, TsNs: 20_500}, // nothing open: no record
		{Ph: 'X', Name: "a.B.run(I)V", Pid: 1, Tid: 10, TsNs: 30_000, DurNs: 500},
		{Ph: 'C', Name: "counter", Pid: 1, Tid: 10, TsNs: 31_000},
	}
	tr := writeArt(t, events)
	assert.Equal(t, []string{"3", "data-file-overflow=false", "clock=wall", "elapsed-time-usec=30", "num-method-calls=6",
		"clock-call-overhead-nsec=0", "vm=art", "pid=4242"}, tr.version)
	assert.Equal(t, map[string]string{"1": "main thread ", "2": "tid 11"}, tr.threads)
	assert.Equal(t, map[uint32]string{4: "a.B run (I)V", 8: "a.B inner ()V", 12: "a.B thrown ()V", 16: "section - ()V", 20: "noDot(x) - ()V"}, tr.methods)
	var got []string
	for _, r := range tr.records {
		got = append(got, r.String())
	}
	// Records come in the order the events end or begin, a thread's calls
	// closing when its next event comes (or at the close).
	assert.Equal(t, []string{
		"1 enter 0x4 @1", "1 enter 0x8 @2", "1 exit 0x8 @5", "1 enter 0xc @6",
		"2 enter 0x10 @3", "2 enter 0x14 @3", "2 exit 0x14 @4", "2 exit 0x10 @20",
		"1 unwind 0xc @7", "1 exit 0x4 @11", "1 enter 0x4 @30", "1 exit 0x4 @30",
	}, got)
	assert.Zero(t, binary.LittleEndian.Uint64(tr.header[8:]), "the start time")
}

// TestArtWriterTimes: decode writes one thread after another, so a
// thread's times are its own even when earlier than another thread's
// (they once were raised to the latest time of any thread, moving every
// thread but the first); within a thread a time earlier than one written
// before is written as that one (ART's times count up); a begin never
// ended ends with the trace; a trace past 32 bits of µs is refused.
func TestArtWriterTimes(t *testing.T) {
	tr := writeArt(t, []traceout.Event{
		{Ph: 'X', Name: "a.B.m()V", Tid: 1, TsNs: 5_000, DurNs: 1_000},
		{Ph: 'X', Name: "a.B.m()V", Tid: 1, TsNs: 40_000, DurNs: 1_000},
		{Ph: 'X', Name: "a.B.m()V", Tid: 2, TsNs: 2_000, DurNs: 9_000},
		{Ph: 'X', Name: "a.B.m()V", Tid: 2, TsNs: 1_000, DurNs: 1_000},
		{Ph: 'B', Name: "a.B.open()V", Tid: 3, TsNs: 7_000},
	})
	var got []string
	for _, r := range tr.records {
		got = append(got, r.String())
	}
	// Thread 2's second call starts (at 1 µs) inside its first: a callee,
	// written at 2 µs, its thread's latest.
	assert.Equal(t, []string{"1 enter 0x4 @5", "1 exit 0x4 @6", "1 enter 0x4 @40",
		"2 enter 0x4 @2", "2 enter 0x4 @2", "3 enter 0x8 @7",
		"1 exit 0x4 @41", "2 exit 0x4 @2", "2 exit 0x4 @11", "3 exit 0x8 @41"}, got)
	assert.Contains(t, tr.version, "elapsed-time-usec=41")
	assert.Contains(t, tr.version, "num-method-calls=5")
	assert.Contains(t, tr.version, "pid=0")

	var out bytes.Buffer
	w := traceout.NewArtWriter(&out)
	require.NoError(t, w.Write(traceout.Event{Ph: 'X', Name: "a.B.m()V", Tid: 1, TsNs: 0, DurNs: 1}))
	last := int64(1<<32-1) * 1000
	require.NoError(t, w.Write(traceout.Event{Ph: 'B', Name: "a.B.m()V", Tid: 1, TsNs: last}))
	err := w.Write(traceout.Event{Ph: 'B', Name: "a.B.m()V", Tid: 1, TsNs: last + 1000})
	assert.ErrorContains(t, err, "32 bits of microseconds")
	assert.Error(t, w.Close())
}

// TestArtWriterLeavesNoTempFile: the records' temporary file goes at the
// close, written or failed.
func TestArtWriterLeavesNoTempFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	for _, events := range [][]traceout.Event{
		{{Ph: 'X', Name: "a.B.m()V", Tid: 1, TsNs: 0, DurNs: 1}},
		{{Ph: 'B', Name: "a.B.m()V", Tid: 1, TsNs: 1 << 62}}, // past 32 bits of µs: an error
	} {
		w := traceout.NewArtWriter(&bytes.Buffer{})
		for _, e := range events {
			w.Write(e)
		}
		w.Close()
		left, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Empty(t, left)
	}
}

// TestArtWriterOtherNames: a section's name that only looks like a
// method's, with nothing before its dot or its parenthesis, is a class
// alone, as any other section's.
func TestArtWriterOtherNames(t *testing.T) {
	tr := writeArt(t, []traceout.Event{
		{Ph: 'X', Name: ".draw(x)", Tid: 1, TsNs: 0, DurNs: 1_000},
		{Ph: 'X', Name: "(x).y", Tid: 1, TsNs: 2_000, DurNs: 1_000},
		{Ph: 'X', Name: "A.b()V", Tid: 1, TsNs: 4_000, DurNs: 1_000},
	})
	assert.Equal(t, map[uint32]string{4: ".draw(x) - ()V", 8: "(x).y - ()V", 12: "A b ()V"}, tr.methods)
}
