package decode

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// sameTime is n records at time 1: one time mark, then the words.
func sameTime(n int) [][2]uint64 {
	recs := make([][2]uint64, n)
	for i := range recs {
		recs[i] = [2]uint64{1, enterW(1)}
		if i%2 == 1 {
			recs[i][1] = exitW(1)
		}
	}
	return recs
}

// TestRecordingSlotErrors: a damaged slot is named by its thread and its
// byte in the file, wherever it falls, past the first 4,096 slots too.
func TestRecordingSlotErrors(t *testing.T) {
	first := testThread{Tid: 1, Name: "main", Records: [][2]uint64{{1, enterW(1)}, {2, exitW(1)}}}
	second := func(n int) testThread { return testThread{Tid: 2, Name: "w", Records: sameTime(n)} }
	decodeErr := func(data []byte) error {
		_, err := Decode(bytes.NewReader(data), &bytes.Buffer{}, Options{Source: "app.trace"})
		return err
	}
	const slots = 2 + 2 // the second thread's: a mark and two records
	data := writeRecording(10, nil, first, second(2))
	at := func(data []byte, n, i int) int { return len(data) - 4*(n-i) }

	err := decodeErr(patchSlot(data, slots, 0, enterW(1)))
	assert.EqualError(t, err, fmt.Sprintf(`app.trace: thread 2 (tid 2 "w"): byte %d: a record before any time mark: damaged file?`, at(data, slots, 0)))
	err = decodeErr(patchSlot(data, slots, 0, recording.MarkLow|5))
	assert.EqualError(t, err, fmt.Sprintf(`app.trace: thread 2 (tid 2 "w"): byte %d: the second half of a time mark without the first: damaged file?`, at(data, slots, 0)))

	// Past the first slot, in version 2 (where a low half alone is no
	// mark): the byte of the slot itself.
	v2 := writeRecordingAs(2, recording.RecordingClock{}, 10, nil, first, second(2))
	err = decodeErr(patchSlot(v2, slots, 2, recording.MarkLow|5))
	assert.EqualError(t, err, fmt.Sprintf(`app.trace: thread 2 (tid 2 "w"): byte %d: the second half of a time mark without the first: damaged file?`, at(v2, slots, 2)))
	err = decodeErr(patchSlot(v2, slots, 1, enterW(1)))
	assert.EqualError(t, err, fmt.Sprintf(`app.trace: thread 2 (tid 2 "w"): byte %d: a record before any time mark: damaged file?`, at(v2, slots, 1)))

	// The thread's header says one record fewer than its slots hold: the
	// last is one too many. Past a chunk of 4,096 slots, too.
	for _, n := range []int{2, 5000} {
		data := writeRecording(10, nil, first, second(n))
		slots := 2 + n
		count := len(data) - 4*slots - 8 // records (u32), then slots (u32)
		require.Equal(t, uint32(n), binary.BigEndian.Uint32(data[count:]))
		binary.BigEndian.PutUint32(data[count:], uint32(n-1))
		err := decodeErr(data)
		assert.EqualError(t, err, fmt.Sprintf(`app.trace: thread 2 (tid 2 "w"): byte %d: more records than the %d the thread's header says: damaged file?`,
			at(data, slots, slots-1), n-1), "%d records", n)
	}
}

// TestRecordingSlotChunks: a thread whose last chunk of slots is a single
// slot reads whole.
func TestRecordingSlotChunks(t *testing.T) {
	const n = 4096 - 2 + 1 // a mark, then records: 4,097 slots
	data := writeRecording(10, nil, testThread{Tid: 1, Name: "main", Records: sameTime(n)})
	rec, err := recording.Read(bufio.NewReader(bytes.NewReader(data)), "r")
	require.NoError(t, err)
	_, err = rec.NextThread()
	require.NoError(t, err)
	seen := 0
	require.NoError(t, rec.Records(func(bool, int, uint64) error { seen++; return nil }))
	assert.Equal(t, n, seen)
}

// TestRecordingStopAndSkip: after the callback stops a thread's records,
// the next thread is read from where it starts.
func TestRecordingStopAndSkip(t *testing.T) {
	for _, stopAt := range []int{1, 3} {
		data := writeRecording(10, nil,
			testThread{Tid: 1, Name: "main", Records: sameTime(4)},
			testThread{Tid: 2, Name: "w", Records: sameTime(2)})
		rec, err := recording.Read(bufio.NewReader(bytes.NewReader(data)), "r")
		require.NoError(t, err)
		_, err = rec.NextThread()
		require.NoError(t, err)
		stop := errors.New("stop")
		seen := 0
		err = rec.Records(func(bool, int, uint64) error {
			if seen++; seen == stopAt {
				return stop
			}
			return nil
		})
		require.ErrorIs(t, err, stop)
		assert.Equal(t, fmt.Sprintf(`thread 1 (tid 1 "main") record %d`, stopAt), rec.Where())
		next, err := rec.NextThread()
		require.NoError(t, err, "stopped at %d", stopAt)
		assert.Equal(t, "w", next.Name)
		seen = 0
		require.NoError(t, rec.Records(func(bool, int, uint64) error { seen++; return nil }))
		assert.Equal(t, 2, seen)
	}
}

// TestRecordingHeaderCuts: a header cut inside the clock names the field,
// and a clock that is neither kind names its byte; a count of section
// names at the limit is read (and found cut), one past it refused.
func TestRecordingHeaderCuts(t *testing.T) {
	data := writeRecordingAs(2, recording.RecordingClock{Shared: true, Tick: 1000, ReadEvery: 64, LongestGap: 5000}, 10, nil,
		testThread{Tid: 1, Name: "main", Records: sameTime(2)})
	mode := len(recording.RecordingMagic) + 2 + 4*8
	for _, tc := range []struct {
		cut  int
		want string
	}{
		{mode, "clock at byte " + fmt.Sprint(mode)},
		{mode + 1 + 3, "clock tick at byte " + fmt.Sprint(mode+1)},
		{mode + 9 + 1, "clock reads at byte " + fmt.Sprint(mode+9)},
		{mode + 13 + 7, "longest clock gap at byte " + fmt.Sprint(mode+13)},
	} {
		_, err := recording.Read(bufio.NewReader(bytes.NewReader(data[:tc.cut])), "r")
		assert.ErrorContains(t, err, "r: recording header: "+tc.want, "cut at %d", tc.cut)
	}
	sections := mode + 1 + 8 + 4 + 8
	for count, want := range map[uint32]string{1 << 24: "r: recording header: section index at byte", 1<<24 + 1: "16777217 section names at byte"} {
		cut := binary.BigEndian.AppendUint32(bytes.Clone(data[:sections]), count)
		_, err := recording.Read(bufio.NewReader(bytes.NewReader(cut)), "r")
		assert.ErrorContains(t, err, want, "%d section names", count)
	}
	bad := bytes.Clone(data)
	bad[mode] = 2
	_, err := recording.Read(bufio.NewReader(bytes.NewReader(bad)), "r")
	assert.EqualError(t, err, fmt.Sprintf("r: recording header: clock 2 at byte %d is neither 0 (precise) nor 1 (shared)", mode))
}

// TestRecordingPositions: Where names the record being read in version 2
// files as in version 1 and 3; a version 1 file cut inside a record names
// it.
func TestRecordingPositions(t *testing.T) {
	for _, version := range []int{1, 2, 3} {
		data := writeRecordingAs(version, recording.RecordingClock{}, 10, nil,
			testThread{Tid: 1, Name: "main", Records: [][2]uint64{{1, enterW(1)}, {2, enterW(2)}, {3, exitW(2)}, {4, exitW(1)}}})
		rec, err := recording.Read(bufio.NewReader(bytes.NewReader(data)), "r")
		require.NoError(t, err)
		_, err = rec.NextThread()
		require.NoError(t, err)
		var where []string
		require.NoError(t, rec.Records(func(bool, int, uint64) error {
			where = append(where, rec.Where())
			return nil
		}))
		assert.Equal(t, []string{
			`thread 1 (tid 1 "main") record 1`, `thread 1 (tid 1 "main") record 2`,
			`thread 1 (tid 1 "main") record 3`, `thread 1 (tid 1 "main") record 4`,
		}, where, "version %d", version)
	}
	v1 := writeRecordingAs(1, recording.RecordingClock{}, 10, nil,
		testThread{Tid: 1, Name: "main", Records: [][2]uint64{{1, enterW(1)}, {2, enterW(2)}, {3, exitW(2)}, {4, exitW(1)}}})
	res, err := Decode(bytes.NewReader(v1[:len(v1)-12-5]), &bytes.Buffer{}, Options{Source: "app.trace"})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(res.Notes, "\n"), `app.trace: the file is cut at byte `+fmt.Sprint(len(v1)-24)+`, in thread 1 (tid 1 "main"), at its record 3 of 4`)
}

// TestRecordingCutAtEveryByte: a version 1 to 3 file cut at any byte
// either names the header field it ends in, at the byte the field starts,
// or reads up to the cut with a note naming the thread it is cut in (its
// header's last field too) and how many threads after it are missing.
func TestRecordingCutAtEveryByte(t *testing.T) {
	headerErr := regexp.MustCompile(`^r: recording header: (.+) at byte (\d+): the file ends here \(truncated\?\)$`)
	cutNote := regexp.MustCompile(`^r: the file is cut at byte (\d+), (.+?)(; the (?:thread after it is|\d+ threads after it are) missing)?: what is there up to the cut is read$`)
	for _, version := range []int{1, 2, 3} {
		data := writeRecordingOf(version, recording.RecordingClock{Shared: true, Tick: 1000, ReadEvery: 64, LongestGap: 5000},
			[]string{"00000000000000aa"}, 10, map[int]string{0: "inflate"},
			testThread{Tid: 1, Name: "main", Records: sameTime(2)},
			testThread{Tid: 2, Name: "pool", Records: sameTime(2)})
		var fields []string
		var notes []string
		for n := 0; n < len(data); n++ {
			rec, err := recording.Read(bufio.NewReader(bytes.NewReader(data[:n])), "r")
			if err != nil {
				m := headerErr.FindStringSubmatch(err.Error())
				require.NotNil(t, m, "version %d cut at %d: %v", version, n, err)
				at, _ := strconv.Atoi(m[2])
				assert.LessOrEqual(t, at, n, "version %d: %s", version, m[1])
				if len(fields) == 0 || fields[len(fields)-1] != m[1] {
					fields = append(fields, m[1])
				}
				continue
			}
			records := 0
			for {
				_, err := rec.NextThread()
				if err == io.EOF {
					break
				}
				require.NoError(t, err, "version %d cut at %d", version, n)
				require.NoError(t, rec.Records(func(bool, int, uint64) error { records++; return nil }), "version %d cut at %d", version, n)
			}
			require.True(t, rec.Cut, "version %d cut at %d", version, n)
			require.Len(t, rec.Notes, 1, "version %d cut at %d", version, n)
			note := rec.Notes[0]
			m := cutNote.FindStringSubmatch(note)
			require.NotNil(t, m, "version %d cut at %d: %s", version, n, note)
			at, _ := strconv.Atoi(m[1])
			assert.True(t, at <= n && n-at < 12, "version %d cut at %d: the note's byte %d is where the last whole field or record ends", version, n, at)
			assert.LessOrEqual(t, records, 4)
			what := m[2]
			for _, at := range []string{", after", ", at its record"} {
				if k := strings.Index(what, at); k > 0 {
					what = what[:k]
				}
			}
			what += m[3]
			if len(notes) == 0 || notes[len(notes)-1] != what {
				notes = append(notes, what)
			}
		}
		want := []string{"magic", "version", "start time", "end time", "process id", "budget"}
		if version >= 2 {
			want = append(want, "clock", "clock tick", "clock reads", "longest clock gap")
		}
		if version >= 3 {
			want = append(want, "build count", "build id length", "build id")
		}
		want = append(want, "section names count", "section index", "section name length", "section name", "threads count")
		assert.Equal(t, want, fields, "version %d", version)
		assert.Equal(t, []string{
			"in the header of thread 1 of 2; the thread after it is missing",
			`in thread 1 (tid 1 "main"); the thread after it is missing`,
			"in the header of thread 2 of 2",
			`in thread 2 (tid 2 "pool")`,
		}, notes, "version %d", version)
	}
	// Three threads, cut in the first's records: two after it.
	three := writeRecording(10, nil, testThread{Tid: 1, Name: "a", Records: sameTime(2)},
		testThread{Tid: 2, Name: "b", Records: sameTime(2)}, testThread{Tid: 3, Name: "c", Records: sameTime(2)})
	first := len(writeRecording(10, nil, testThread{Tid: 1, Name: "a", Records: sameTime(2)}))
	rec, err := recording.Read(bufio.NewReader(bytes.NewReader(three[:first-2])), "r")
	require.NoError(t, err)
	_, err = rec.NextThread()
	require.NoError(t, err)
	require.NoError(t, rec.Records(func(bool, int, uint64) error { return nil }))
	require.Len(t, rec.Notes, 1)
	assert.Contains(t, rec.Notes[0], `in thread 1 (tid 1 "a"), after 1 of its 2 records; the 2 threads after it are missing: `)
}

// TestRecordingRefusesWhatIsNotOne: a file without the magic, of version
// 0 or past the newest, a thread named by its place when its slots are
// too few, and a version 1 time past 146 years with its record.
func TestRecordingRefusesWhatIsNotOne(t *testing.T) {
	good := writeRecording(10, nil, testThread{Tid: 1, Name: "main", Records: sameTime(2)})
	for _, tc := range []struct {
		name  string
		patch func(b []byte)
		want  string
	}{
		{"no magic", func(b []byte) { b[4] = 'X' }, `r: not a tracebeat recording (no "TBREC" at the start)`},
		{"version 0", func(b []byte) { b[7] = 0 }, "r: recording format version 0; this tracebeat reads versions 1 to 4 (use the tracebeat whose runtime wrote it)"},
		{"version 5", func(b []byte) { b[7] = 5 }, "r: recording format version 5; this tracebeat reads versions 1 to 4 (use the tracebeat whose runtime wrote it)"},
	} {
		b := bytes.Clone(good)
		tc.patch(b)
		_, err := recording.Read(bufio.NewReader(bytes.NewReader(b)), "r")
		assert.EqualError(t, err, tc.want, tc.name)
	}

	// The second thread's slots fewer than its records.
	two := writeRecording(10, nil, testThread{Tid: 1, Name: "main", Records: sameTime(2)}, testThread{Tid: 2, Name: "pool", Records: sameTime(2)})
	slots := 2 + 2
	at := len(two) - 4*slots - 4
	binary.BigEndian.PutUint32(two[at:], 1)
	rec, err := recording.Read(bufio.NewReader(bytes.NewReader(two)), "r")
	require.NoError(t, err)
	_, err = rec.NextThread()
	require.NoError(t, err)
	_, err = rec.NextThread()
	assert.EqualError(t, err, "r: thread 2: 2 records in 1 slots: damaged file?")

	// A thread whose slots hold fewer records than its header says.
	short := writeRecording(10, nil, testThread{Tid: 1, Name: "main", Records: sameTime(2)})
	binary.BigEndian.PutUint32(short[len(short)-4*slots-8:], 3)
	rec, err = recording.Read(bufio.NewReader(bytes.NewReader(short)), "r")
	require.NoError(t, err)
	_, err = rec.NextThread()
	require.NoError(t, err)
	err = rec.Records(func(bool, int, uint64) error { return nil })
	assert.ErrorContains(t, err, `r: thread 1 (tid 1 "main"): byte `)
	assert.ErrorContains(t, err, ": 2 records where the thread's header says 3: damaged file?")

	// Version 1: each record with its time; one past 146 years.
	v1 := writeRecordingAs(1, recording.RecordingClock{}, 10, nil, testThread{Tid: 1, Name: "main", Records: [][2]uint64{{5, enterW(1)}, {recording.MaxTime, exitW(1)}}})
	rec, err = recording.Read(bufio.NewReader(bytes.NewReader(v1)), "r")
	require.NoError(t, err)
	_, err = rec.NextThread()
	require.NoError(t, err)
	n := 0
	err = rec.Records(func(bool, int, uint64) error { n++; return nil })
	assert.EqualError(t, err, `r: thread 1 (tid 1 "main"): record 2 of 2: a time of 4611686018427387904 ns after the start (over 146 years): damaged file?`)
	assert.Equal(t, 1, n)
}
