package decode

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// TestBufferNotes: a note for each kind of damage there is, none for a
// count of zero.
func TestBufferNotes(t *testing.T) {
	assert.Empty(t, bufferNotes(PairStats{}))
	assert.Equal(t, []string{
		"1 call started before the buffer (ring-buffer wrap): drawn from the first timestamp",
		"1 call without an exit record: closed at their caller's exit or at the last timestamp",
		"1 exit record with no open call to match, ignored (first at record 7)",
		"time went backwards 1 time (first at record 9)",
	}, bufferNotes(PairStats{NoEnter: 1, Unclosed: 1, StrayExits: 1, FirstStray: "record 7", TimeBackwards: 1, FirstBackward: "record 9"}))
	assert.Empty(t, markerNotes(&MarkerResult{}))
	assert.Equal(t, []string{
		"1 E events had no open B on their thread and were dropped",
		"1 B events were never ended; closed at the last timestamp (args.unclosed)",
		"1 marker events have no JSON form here (async S/F, non-integer counters) and were skipped",
		"1 tracing_mark_write lines could not be parsed and were skipped",
	}, markerNotes(&MarkerResult{EndWithoutBegin: 1, UnclosedBegins: 1, Skipped: 1, Unparsed: 1}))
}

// TestBufferSummaryLines: the summary's damage lines appear for a count of
// one and not for zero.
func TestBufferSummaryLines(t *testing.T) {
	summary := func(st PairStats) string {
		var out bytes.Buffer
		require.NoError(t, writeBufferSummary(&out, &BufferResult{Stats: st}, nil, BufferOptions{}))
		return out.String()
	}
	clean := summary(PairStats{Records: 2, Frames: 1, HaveTime: true, First: 5, Last: 9, MaxDepth: 1})
	assert.Equal(t, "AppMethodBeat buffer: 2 records, 1 call, 5..9 ms, max depth 1\nno calls\n", clean)
	damaged := summary(PairStats{Records: 1, EmptySlots: 1, NoEnter: 1, Unclosed: 1, Last: 4, StrayExits: 1, FirstStray: "record 3", TimeBackwards: 1, FirstBackward: "record 2"})
	assert.Equal(t, strings.Join([]string{
		"AppMethodBeat buffer: 1 record, 0 calls, max depth 0",
		"  empty slots skipped: 1",
		"  calls started before the buffer (ring-buffer wrap): 1",
		"  calls without exit record: 1 (closed at their caller's exit or at 4 ms)",
		"  exit records matching no open call (ignored): 1, first at record 3",
		"  time went backwards: 1 time, first at record 2",
		"no calls", ""}, "\n"), damaged)
}

// TestBinaryReaderWhere names the record last read and its offset.
func TestBinaryReaderWhere(t *testing.T) {
	var data []byte
	for i := range 3 {
		data = binary.BigEndian.AppendUint64(data, uint64(MakeRecord(true, 5, uint64(i))))
	}
	rr, _, err := NewBinaryRecordReader(bytes.NewReader(data), binary.BigEndian, nil)
	require.NoError(t, err)
	for i := 1; i <= 2; i++ {
		_, err := rr.Next()
		require.NoError(t, err)
	}
	assert.Equal(t, "record 2 (byte offset 8)", rr.Where())
}

// TestPlausibility scores each record: an id in the map +2, an id out of
// range -2, a time that stays or moves forward by at most a minute +1,
// anything else -1; empty slots count for nothing.
func TestPlausibility(t *testing.T) {
	names, err := ReadMethodNames(strings.NewReader("7,1,a.B m ()V\n"), "m")
	require.NoError(t, err)
	sample := func(rs ...Record) []byte {
		var b []byte
		for _, r := range rs {
			b = binary.BigEndian.AppendUint64(b, uint64(r))
		}
		return b
	}
	score := func(rs ...Record) int { return plausibility(sample(rs...), binary.BigEndian, names) }
	assert.Equal(t, 2, score(MakeRecord(true, 7, 10)))
	assert.Equal(t, 0, score(MakeRecord(true, 8, 10)))
	assert.Equal(t, -2, score(MakeRecord(true, 0, 10)))
	assert.Equal(t, 0, score(0))
	assert.Equal(t, 2+2+1, score(MakeRecord(true, 7, 10), MakeRecord(false, 7, 10)))
	assert.Equal(t, 2+2+1, score(MakeRecord(true, 7, 10), MakeRecord(false, 7, 60_010)))
	assert.Equal(t, 2+2-1, score(MakeRecord(true, 7, 10), MakeRecord(false, 7, 60_011)))
	assert.Equal(t, 2+2-1, score(MakeRecord(true, 7, 10), MakeRecord(false, 7, 9)))
	assert.Equal(t, 2+0+2+1, score(MakeRecord(true, 7, 10), 0, MakeRecord(false, 7, 11)))

	order, err := GuessByteOrder(nil, names)
	require.NoError(t, err)
	assert.Equal(t, binary.BigEndian, order)
	order, err = GuessByteOrder(make([]byte, 16), names)
	require.NoError(t, err)
	assert.Equal(t, binary.BigEndian, order, "all empty: either order")
	assert.True(t, allZero(make([]byte, 9)))
	assert.False(t, allZero([]byte{0, 0, 1}))
	assert.False(t, allZero([]byte{1}))
}

// TestTextRecordNumbers: hex needs digits after its 0x.
func TestTextRecordNumbers(t *testing.T) {
	for text, want := range map[string]uint64{"0x1": 1, "0XfF": 255, "12": 12, "-1": 1<<64 - 1} {
		v, err := parseRecordNumber(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, v, text)
	}
	for _, text := range []string{"0x", "0X", "x1", ""} {
		_, err := parseRecordNumber(text)
		assert.Error(t, err, text)
	}
	rr := NewTextRecordReader(bufio.NewReader(strings.NewReader("\ufeff# c\n\n  0x2  \n")), "t")
	r, err := rr.Next()
	require.NoError(t, err)
	assert.Equal(t, Record(2), r)
	assert.Equal(t, "line 3", rr.Where())
}

// TestBufferEvidence: binary input reads as records when 90% of them have
// ids under the limit and times under 2^40 ms, and the times go back at
// most once (a ring buffer's wrap) but for 10%; four records are judged,
// three are too few.
func TestBufferEvidence(t *testing.T) {
	records := func(mod func(i int) (id int, ms uint64)) []byte {
		var b []byte
		for i := range 10 {
			id, ms := mod(i)
			v := uint64(MakeRecord(i%2 == 0, 0, ms)) | uint64(id)<<recordIDShift
			b = binary.BigEndian.AppendUint64(b, v)
		}
		return b
	}
	ok := func(i int) (int, uint64) { return 5, uint64(100 + i) }
	assert.Empty(t, bufferEvidence(records(ok)))
	assert.Empty(t, bufferEvidence(records(func(i int) (int, uint64) {
		id, ms := ok(i)
		if i == 3 {
			id = MaxMethodID // one of ten at the limit: 90% plausible
		}
		return id, ms
	})))
	assert.NotEmpty(t, bufferEvidence(records(func(i int) (int, uint64) {
		id, ms := ok(i)
		if i == 3 || i == 6 {
			id = MaxMethodID
		}
		return id, ms
	})), "two ids at the limit")
	assert.NotEmpty(t, bufferEvidence(records(func(i int) (int, uint64) {
		id, ms := ok(i)
		if i >= 8 { // last, so that the times do not go back
			ms = 1 << 40
		}
		return id, ms
	})), "two times at 2^40")
	assert.Empty(t, bufferEvidence(records(func(i int) (int, uint64) {
		return 5, uint64((i + 5) % 10) // one wrap: 5..9, 0..4
	})))
	assert.Empty(t, bufferEvidence(records(func(i int) (int, uint64) {
		return 5, uint64(7) // equal times do not go back
	})))
	assert.NotEmpty(t, bufferEvidence(records(func(i int) (int, uint64) {
		return 5, uint64([]int{1, 2, 0, 3, 4, 1, 5, 6, 2, 7}[i]) // three steps back
	})))
	// Four records are judged; three are left to the reader.
	back := records(func(i int) (int, uint64) { return 5, uint64(10 - i) })
	assert.NotEmpty(t, bufferEvidence(back[:32]))
	assert.Empty(t, bufferEvidence(back[:31]))
}

func TestUncheckedBuildNote(t *testing.T) {
	assert.Empty(t, UncheckedBuildNote("beat.bin", MapBuild{}))
	assert.Equal(t, "beat.bin names no build (Matrix's runtime and systrace record none): that m.txt is its build's map is checked only by the ids it names (any it lacks are counted below)",
		UncheckedBuildNote("beat.bin", MapBuild{ID: "0123456789abcdef", Path: "m.txt"}))
}

// TestLooksLikeText: no NUL, control characters (tabs and line ends
// aside) in at most 1% of the bytes, valid UTF-8 but for a rune cut at the
// end.
func TestLooksLikeText(t *testing.T) {
	line := strings.Repeat("a", 99)
	for _, tt := range []struct {
		name string
		b    string
		want bool
	}{
		{"plain", "1,2,a.B m ()V\r\n\tx", true},
		{"a NUL first", "\x00abc", false},
		{"a NUL", "abc\x00", false},
		{"one control in 100", "\x01" + line, true},
		{"two controls in 100", "\x01\x02" + line[1:], false},
		{"one control in 99", "\x01" + line[1:], false},
		{"a rune cut after 1 of 3 bytes", "abc\xe2", true},
		{"a rune cut after 2 of 3 bytes", "abc\xe2\x82", true},
		{"a rune cut after 3 of 4 bytes", "abc\xf0\x9f\x98", true},
		{"a bad byte inside", "a\xffbcdef", false},
		{"four bad bytes at the end", "abc\xff\xff\xff\xff", false},
		{"a whole rune", "abc\u20ac", true},
		{"empty", "", true},
	} {
		assert.Equal(t, tt.want, looksLikeText([]byte(tt.b)), tt.name)
	}
	assert.Equal(t, "abc", shorten("abc", 3))
	assert.Equal(t, "ab...", shorten("abc", 2))
}

// TestDecodeNotesTheUncheckedBuild: a Matrix buffer decoded with a map of a
// known build says the build is checked by ids only; without a map's
// build, nothing is said.
func TestDecodeNotesTheUncheckedBuild(t *testing.T) {
	text := func(rs ...Record) string {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString("0x" + strconv.FormatUint(uint64(r), 16) + "\n")
		}
		return b.String()
	}
	buf := text(MakeRecord(true, 3, 1), MakeRecord(false, 3, 2))
	res, err := Decode(strings.NewReader(buf), &bytes.Buffer{}, Options{Source: "beat.txt", Kind: KindBufferText, Map: MapBuild{Path: "m.txt", ID: "00000000000000bb"}})
	require.NoError(t, err)
	require.Len(t, res.Notes, 1)
	assert.Contains(t, res.Notes[0], "beat.txt names no build")
	res, err = Decode(strings.NewReader(buf), &bytes.Buffer{}, Options{Source: "beat.txt", Kind: KindBufferText})
	require.NoError(t, err)
	assert.Empty(t, res.Notes)
}

// TestSlowestCallsTies: calls of equal cost rank by when they started.
func TestSlowestCallsTies(t *testing.T) {
	s := NewSlowestCalls(2, 4)
	for i, id := range []int{11, 12, 13} {
		s.Add(Frame{MethodID: id, Seq: int64(i), Start: uint64(10 * i), End: uint64(10*i + 5)})
	}
	var ids []int
	for _, st := range s.Stacks() {
		ids = append(ids, st.Lines[0].MethodID)
	}
	assert.Equal(t, []int{11, 12}, ids)
}

// TestTextRecordsLongLine: a line of up to a MiB is read (a comment a
// tool wrote), past the scanner's first 64 KiB.
func TestTextRecordsLongLine(t *testing.T) {
	rr := NewTextRecordReader(strings.NewReader("# "+strings.Repeat("x", 200_000)+"\n0x5\n"), "t")
	r, err := rr.Next()
	require.NoError(t, err)
	assert.Equal(t, Record(5), r)
}

// TestRecordingEdges: the clock's coarse edge, durations at each unit's
// edge, 1024 builds (the most a header may name), threads skipped without
// reading their records, and a header cut inside a thread's.
func TestRecordingEdges(t *testing.T) {
	assert.True(t, recording.RecordingClock{Shared: true, LongestGap: 1_000_000}.Coarse())
	assert.False(t, recording.RecordingClock{Shared: true, LongestGap: 999_999}.Coarse())
	for ns, want := range map[uint64]string{999: "999 ns", 1000: "1 µs", 999_499: "999 µs", 999_500: "1 ms", 999_999: "1 ms",
		1_000_000: "1 ms", 1_234_567: "1.23 ms", 999_499_999: "999 ms", 999_500_000: "1 s", 1_500_000_000: "1.5 s",
		999_499_999_999: "999 s", 999_500_000_000: "1000 s", 1_000_000_000_000: "1000 s", 3_600_000_000_000: "3600 s"} {
		assert.Equal(t, want, recording.FormatDuration(ns), "%d", ns)
	}

	builds := make([]string, 1024)
	for i := range builds {
		builds[i] = fmt.Sprintf("%016x", i)
	}
	two := []testThread{
		{Tid: 1, Name: "main", Records: [][2]uint64{{1, enterW(1)}, {2, exitW(1)}}},
		{Tid: 2, Name: "worker", Records: [][2]uint64{{3, enterW(2)}, {4, exitW(2)}}},
	}
	data := writeRecordingOf(slotsVersion, recording.RecordingClock{}, builds, 10, nil, two...)
	rec, err := recording.Read(bufio.NewReader(bytes.NewReader(data)), "r")
	require.NoError(t, err)
	assert.Len(t, rec.Builds, 1024)
	first, err := rec.NextThread()
	require.NoError(t, err)
	assert.Equal(t, "main", first.Name)
	second, err := rec.NextThread() // the first's records skipped unread
	require.NoError(t, err)
	require.NotNil(t, second)
	assert.Equal(t, int64(2), second.Tid)
	assert.Equal(t, "worker", second.Name)
	_, err = rec.NextThread()
	assert.ErrorIs(t, err, io.EOF)

	// Cut inside the second thread's header (its id): the first thread
	// decodes, and a note says where the file ends.
	cut := writeRecording(10, nil, two...)
	tail := 8 + 2 + len("worker") + 1 + 8 + 4 + 4 + 4*6 // the second thread
	res, err := Decode(bytes.NewReader(cut[:len(cut)-tail+3]), &bytes.Buffer{}, Options{Source: "app.trace"})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(res.Notes, "\n"), fmt.Sprintf("app.trace: the file is cut at byte %d, in the header of thread 2 of 2", len(cut)-tail))
}

// TestRecordingVersion1 reads a version 1 file (a time and a word a
// record): sections, an error from the callback, Where as it reads; and a
// version 3 thread with fewer slots than records.
func TestRecordingVersion1(t *testing.T) {
	sectionWord := uint64(1<<30 | 0) // section 0
	data := writeRecordingAs(1, recording.RecordingClock{}, 10, map[int]string{0: "frame"},
		testThread{Tid: 1, Name: "main", Records: [][2]uint64{{1, enterW(3)}, {2, sectionWord}, {3, sectionWord | recording.ExitFlag}, {4, exitW(3)}}})
	rec, err := recording.Read(bufio.NewReader(bytes.NewReader(data)), "r")
	require.NoError(t, err)
	assert.Equal(t, "byte "+strconv.FormatInt(int64(len(data)-4*12-8-2-len("main")-8-4), 10), rec.Where())
	th, err := rec.NextThread()
	require.NoError(t, err)
	assert.Equal(t, uint32(4), th.Records)
	var got []string
	require.NoError(t, rec.Records(func(enter bool, id int, ts uint64) error {
		got = append(got, fmt.Sprintf("%v %d %d %s", enter, id, ts, rec.Where()))
		return nil
	}))
	section := recording.SectionID(0)
	assert.Equal(t, []string{
		fmt.Sprintf("true 3 1 thread 1 (tid 1 %q) record 1", "main"),
		fmt.Sprintf("true %d 2 thread 1 (tid 1 %q) record 2", section, "main"),
		fmt.Sprintf("false %d 3 thread 1 (tid 1 %q) record 3", section, "main"),
		fmt.Sprintf("false 3 4 thread 1 (tid 1 %q) record 4", "main"),
	}, got)

	rec, err = recording.Read(bufio.NewReader(bytes.NewReader(data)), "r")
	require.NoError(t, err)
	_, err = rec.NextThread()
	require.NoError(t, err)
	stop := fmt.Errorf("stop")
	assert.ErrorIs(t, rec.Records(func(bool, int, uint64) error { return stop }), stop)

	// Version 3: a thread whose slots are fewer than its records.
	v3 := writeRecording(10, nil, testThread{Tid: 1, Name: "main", Records: [][2]uint64{{1, enterW(1)}, {1, exitW(1)}}})
	// The thread's counts: records (2) then slots (3: a mark of two words, and... ) at the end.
	slots := 2 + 2 // a mark (two words) and two records
	at := len(v3) - 4*slots - 4
	require.Equal(t, uint32(slots), binary.BigEndian.Uint32(v3[at:]))
	bad := bytes.Clone(v3)
	binary.BigEndian.PutUint32(bad[at:], 1)
	_, err = Decode(bytes.NewReader(bad), &bytes.Buffer{}, Options{Source: "app.trace"})
	assert.ErrorContains(t, err, `app.trace: thread 1: 2 records in 1 slots: damaged file?`)
	binary.BigEndian.PutUint32(bad[at:], 2) // as many slots as records: read, then the file is too long
	_, err = Decode(bytes.NewReader(bad), &bytes.Buffer{}, Options{Source: "app.trace"})
	assert.NotContains(t, fmt.Sprint(err), "records in")
}

// TestBufferEvidenceBacksteps: beyond the one wrap allowed, steps back
// count against the records between them: one more in ten records is too
// many, in twenty it is not.
func TestBufferEvidenceBacksteps(t *testing.T) {
	records := func(n int, back ...int) []byte {
		var b []byte
		ms := uint64(100)
		for i := range n {
			if slices.Contains(back, i) {
				ms -= 50
			}
			ms++
			// Enters and exits alternate, as in a buffer: read the other
			// way round, such records do not look like one.
			b = binary.BigEndian.AppendUint64(b, uint64(MakeRecord(i%2 == 0, 5, ms)))
		}
		return b
	}
	assert.NotEmpty(t, bufferEvidence(records(10, 4, 7)))
	assert.Empty(t, bufferEvidence(records(20, 4, 7)))
}

// TestGuessByteOrderReadsTheWholeSample: records after a few empty slots
// decide the order.
func TestGuessByteOrderReadsTheWholeSample(t *testing.T) {
	names, err := ReadMethodNames(strings.NewReader("7,1,a.B m ()V\n"), "m")
	require.NoError(t, err)
	var sample []byte
	sample = append(sample, make([]byte, 16)...)
	for i := range 14 {
		sample = binary.LittleEndian.AppendUint64(sample, uint64(MakeRecord(i%2 == 0, 7, uint64(100+i))))
	}
	order, err := GuessByteOrder(sample, names)
	require.NoError(t, err)
	assert.Equal(t, binary.LittleEndian, order)
	assert.Equal(t, -2, plausibility(binary.BigEndian.AppendUint64(nil, uint64(MakeRecord(true, MaxMethodID, 1))), binary.BigEndian, names), "the id limit itself")
}

// TestLooksLikeTextNulInLongText: a NUL is never text, even where one
// control character in a hundred would be let through.
func TestLooksLikeTextNulInLongText(t *testing.T) {
	assert.False(t, looksLikeText([]byte("\x00"+strings.Repeat("a", 199))))
	assert.True(t, looksLikeText([]byte("\x01"+strings.Repeat("a", 199))))
}

// TestFrameSorter: frames come out in Seq order (negative Seqs, of frames
// without their enter, first) whether sorted in memory by comparison
// (under 256), by radix, or spilled in chunks and merged; each frame's
// fields survive a spill.
func TestFrameSorter(t *testing.T) {
	for _, tt := range []struct{ n, chunk int }{{10, 0}, {255, 0}, {300, 0}, {70_000, 0}, {1000, 7}, {1000, 256}, {5, 1}} {
		s := newFrameSorter(t.TempDir(), tt.chunk)
		var want []int64
		for i := range tt.n {
			seq := int64((i*7919)%tt.n) - 3 // a permutation, a few below 0
			want = append(want, seq)
			require.NoError(t, s.add(Frame{Seq: seq, MethodID: int(seq + 100), Start: uint64(i), End: uint64(i + 1), Depth: i % 5}))
		}
		slices.Sort(want)
		var got []int64
		require.NoError(t, s.each(func(f Frame) error {
			got = append(got, f.Seq)
			require.Equal(t, int(f.Seq+100), f.MethodID)
			require.Equal(t, f.Start+1, f.End)
			return nil
		}))
		s.cleanup()
		require.Equal(t, want, got, "%d frames, chunks of %d", tt.n, tt.chunk)
	}
}

// TestLanes: a thread takes the lane that came free first (by the time
// it came free, then the lane's number), once that lane ended by its
// start; otherwise a new lane.
func TestLanes(t *testing.T) {
	var l laneSet
	type got struct {
		id    int
		fresh bool
	}
	place := func(start, end uint64) got {
		id, fresh := l.place(start, end)
		return got{id, fresh}
	}
	assert.Equal(t, got{1, true}, place(0, 10))
	assert.Equal(t, got{2, true}, place(5, 10))
	assert.Equal(t, got{3, true}, place(9, 20))
	assert.Equal(t, got{1, false}, place(10, 30), "lanes 1 and 2 free at 10: the lower")
	assert.Equal(t, got{2, false}, place(10, 12))
	assert.Equal(t, got{4, true}, place(11, 12), "none free at 11")
	assert.Equal(t, got{2, false}, place(12, 5), "an end before the start is the start")
	assert.Equal(t, got{2, false}, place(12, 13), "lanes 2 and 4 free at 12: the lower")
	assert.Equal(t, got{4, false}, place(12, 14))
}

// TestMarkerFields: seconds with up to nine fraction digits, up to
// 9e9 s; a thread token split at its last '-'; a payload starts with a
// capital letter.
func TestMarkerFields(t *testing.T) {
	for text, want := range map[string]int64{"1.5": 1_500_000_000, "0.000000001": 1, "9000000000": 9e18, "2.123456789": 2_123_456_789, "3": 3e9} {
		ns, err := parseSeconds(text)
		require.NoError(t, err, text)
		assert.Equal(t, want, ns, text)
	}
	for _, text := range []string{"1.1234567890", "9000000001", "1.", ".5", "-1.0", "1.-5", "x"} {
		_, err := parseSeconds(text)
		assert.Error(t, err, text)
	}
	name, tid, ok := parseThreadToken("Render-Thread-12")
	assert.True(t, ok)
	assert.Equal(t, "Render-Thread", name)
	assert.Equal(t, int64(12), tid)
	for _, tok := range []string{"main", "main-", "-", "a-x"} {
		_, _, ok := parseThreadToken(tok)
		assert.False(t, ok, tok)
	}
	name, tid, ok = parseThreadToken("-0")
	assert.True(t, ok)
	assert.Equal(t, "", name)
	assert.Equal(t, int64(0), tid)
}

// TestPairerCounts: two records at one time do not go back; an exit is
// counted.
func TestPairerCounts(t *testing.T) {
	p := NewPairer(func(Frame) error { return nil }, func() string { return "here" })
	require.NoError(t, p.AddCall(true, 1, 5))
	require.NoError(t, p.AddCall(false, 1, 5))
	st := p.Stats()
	assert.Zero(t, st.TimeBackwards)
	assert.Equal(t, int64(1), st.Exits)
	assert.Equal(t, int64(1), st.Enters)
	require.NoError(t, p.AddCall(true, 2, 4))
	assert.Equal(t, int64(1), p.Stats().TimeBackwards)
	assert.Equal(t, "here", p.Stats().FirstBackward)
}

// TestStackCostUnits: milliseconds as they are; a finer unit as µs with
// three decimals.
func TestStackCostUnits(t *testing.T) {
	assert.Equal(t, "1500 ms", Stack{}.formatCost(1500))
	assert.Equal(t, "1500.000 µs", Stack{Unit: time.Microsecond}.formatCost(1500))
	assert.Equal(t, "1.234 µs", Stack{Unit: time.Nanosecond}.formatCost(1234))
}

// TestUnknownIDs: each unknown id once, its occurrences all counted; ids
// at the range's ends and beyond it; ten examples and "..." past them.
func TestUnknownIDs(t *testing.T) {
	names, err := ReadMethodNames(strings.NewReader("7,1,a.B m ()V\n"), "m")
	require.NoError(t, err)
	var u UnknownIDs
	assert.Empty(t, u.String())
	assert.False(t, u.Note(names, 7))
	for _, id := range []int{0, 0, MaxMethodID, MaxMethodID + 1, -1, MaxMethodID + 1, 64, 63} {
		assert.True(t, u.Note(names, id))
	}
	assert.Equal(t, 6, u.Distinct)
	assert.Equal(t, int64(8), u.Occurrences)
	assert.Equal(t, "6 method ids not in the map (8 occurrences): 0, 1048575, 1048576, -1, 64, 63", u.String())
	for id := 100; id < 104; id++ {
		u.Note(names, id)
	}
	assert.Equal(t, "10 method ids not in the map (12 occurrences): 0, 1048575, 1048576, -1, 64, 63, 100, 101, 102, 103", u.String())
	u.Note(names, 104)
	assert.Equal(t, "11 method ids not in the map (13 occurrences): 0, 1048575, 1048576, -1, 64, 63, 100, 101, 102, 103, ...", u.String())
}

// TestStackLineText: Matrix's form of a stack line.
func TestStackLineText(t *testing.T) {
	assert.Equal(t, "2,17,3,450", StackLine{Depth: 2, MethodID: 17, Count: 3, Cost: 450}.String())
}

// TestKeyMethodsAndMarks: a call of exactly 30% of the stack's cost can be
// its key method; the lines marked are those of a key method above 30%,
// or all its lines when none is.
func TestKeyMethodsAndMarks(t *testing.T) {
	lines := func(text ...string) []StackLine {
		var out []StackLine
		for _, s := range text {
			l, err := ParseStackLine(s)
			require.NoError(t, err)
			out = append(out, l)
		}
		return out
	}
	// 100 in all: 30 is the bar. Weights: 100, 80, 6*30.
	assert.Equal(t, []int{3}, KeyMethods(lines("0,1,1,100", "1,2,1,40", "5,3,1,30")))
	assert.Equal(t, []int{1}, KeyMethods(lines("0,1,1,100", "1,2,1,40", "5,3,1,29")))

	s := Stack{Lines: lines("0,1,1,100", "1,7,1,31", "2,7,1,30", "1,8,1,20", "2,8,1,5"), Key: []int{7}}
	assert.Equal(t, []bool{false, true, false, false, false}, s.KeyMarks(), "only 7's line above 30%")
	s.Key = []int{8}
	assert.Equal(t, []bool{false, false, false, true, true}, s.KeyMarks(), "none of 8's above 30%: all of them")
}

// TestLoadMethodNames: a map read from its file; a missing file's error
// names it.
func TestLoadMethodNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "methodMapping.txt")
	require.NoError(t, os.WriteFile(path, []byte("7,1,a.B m ()V\n"), 0o644))
	names, err := LoadMethodNames(path)
	require.NoError(t, err)
	assert.Equal(t, "a.B.m()V", names.Name(7))
	_, err = LoadMethodNames(path + ".missing")
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, "methodMapping.txt.missing")
}
