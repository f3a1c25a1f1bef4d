package profile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode"
	"github.com/tracebeat/tracebeat/decode/recording"
	"github.com/tracebeat/tracebeat/decode/recording/recordingtest"
)

func enterW(id int) uint64 { return uint64(id) }
func exitW(id int) uint64  { return uint64(id) | recording.ExitFlag }

// writeFile writes data to a file of the test's and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	return path
}

// TestReadRecording: a recording of the runtime adds up thread by thread,
// with its sections named, its builds, its wall-clock span and clock; what
// its rings lost is said once, naming three threads at most.
func TestReadRecording(t *testing.T) {
	section := recording.SectionID(0)
	threads := []recordingtest.Thread{
		{Tid: 1, Name: "main", Records: [][2]uint64{
			{100, enterW(1)}, {200, enterW(2)}, {500, exitW(2)}, {1000, exitW(1)},
		}},
		{Tid: 2, Name: "worker", Lost: 7, Records: [][2]uint64{
			{300, enterW(section)}, {300, enterW(3)}, {900, exitW(3)}, {950, exitW(section)},
		}},
	}
	for i := range 3 {
		threads = append(threads, recordingtest.Thread{Tid: int64(10 + i), Name: fmt.Sprintf("lossy-%d", i), Lost: 1,
			Records: [][2]uint64{{10, enterW(3)}, {20, exitW(3)}}})
	}
	clock := recording.RecordingClock{Shared: true, Tick: 1_000_000, ReadEvery: 64, LongestGap: 5_000_000}
	data := recordingtest.Write(recordingtest.SlotsVersion, clock, []string{"b1"}, 2000, map[int]string{0: "message x"}, threads...)
	path := writeFile(t, "app.trace", data)

	p, err := Read(path, names(t), decode.MapBuild{})
	require.NoError(t, err)
	rec, err := recording.Read(bufio.NewReader(bytes.NewReader(data)), path)
	require.NoError(t, err)

	assert.Equal(t, map[string]Stat{
		"app.Main.main([Ljava.lang.String;)V": {Calls: 1, Self: 600, Total: 900, ChildCalls: 1},
		"app.Main.a()V":                       {Calls: 1, Self: 300, Total: 300},
		"app.Main.b()V":                       {Calls: 4, Self: 630, Total: 630, LateCalls: 1},
		"message x":                           {Calls: 1, Self: 50, Total: 650, ChildCalls: 1, LateChildCalls: 1},
	}, p.Methods)
	assert.Equal(t, int64(7), p.Calls)
	assert.Equal(t, []string{"b1"}, p.Builds)
	assert.Equal(t, time.UnixMilli(1_700_000_000_000).UTC(), p.Start)
	assert.Equal(t, p.Start.Add(2000*time.Nanosecond), p.End)
	assert.Equal(t, int64(rec.Clock.Resolution()), p.Resolution)
	assert.Equal(t, int64(rec.Clock.TypicalResolution()), p.TypicalResolution)
	// 14 records, one of which (b's enter on the worker) carried the time before it.
	assert.Equal(t, int64(rec.Clock.TypicalResolution())*14, p.LateResolution)
	require.Len(t, p.Missing, 1)
	assert.Equal(t, "10 records lost (tid 2 \"worker\", tid 10 \"lossy-0\", tid 11 \"lossy-1\", ...): the rings were full, the oldest went; "+
		"-Dtracebeat.budget raises it, -Dtracebeat.mode=stream keeps the whole run", p.Missing[0])
	require.Len(t, p.Notes, 1)
	assert.Equal(t, "times may be up to "+recording.FormatDuration(rec.Clock.Resolution())+" late: "+rec.Clock.Advice(), p.Notes[0])
	section0 := p.Tree.Child("message x", false)
	require.NotNil(t, section0)
	assert.Equal(t, int64(1), section0.Child("app.Main.b()V", false).Stat.Calls)
}

// TestReadChecksAndNotes: a recording of another build than the map's is
// refused, forced it is read with a warning; a section the recording does
// not name is shown by its number; a buffer, binary as Matrix dumps it,
// adds up with a note that its build cannot be checked.
func TestReadChecksAndNotes(t *testing.T) {
	rec := recordingtest.Write(recordingtest.SlotsVersion, recording.RecordingClock{}, []string{"b1"}, 100, nil,
		recordingtest.Thread{Tid: 1, Name: "main", Records: [][2]uint64{{10, enterW(recording.SectionID(5))}, {20, exitW(recording.SectionID(5))}}})
	path := writeFile(t, "app.trace", rec)
	other := decode.MapBuild{Path: "methodMapping.txt", ID: "b2"}
	_, err := Read(path, names(t), other)
	var wrong *decode.WrongMapError
	require.ErrorAs(t, err, &wrong)
	other.Force = true
	p, err := Read(path, names(t), other)
	require.NoError(t, err)
	require.Len(t, p.Notes, 1)
	assert.Contains(t, p.Notes[0], "names may be another build's")
	assert.Equal(t, Stat{Calls: 1, Self: 10, Total: 10}, p.Methods["<section 5>"])
	assert.Empty(t, p.Missing)

	var buf bytes.Buffer
	for _, r := range []decode.Record{decode.MakeRecord(true, 2, 3), 0, decode.MakeRecord(false, 2, 7)} { // 0: an empty slot
		buf.Write(binaryLE(uint64(r)))
	}
	p, err = Read(writeFile(t, "beat.bin", buf.Bytes()), names(t), decode.MapBuild{Path: "m.txt", ID: "b1"})
	require.NoError(t, err)
	assert.Equal(t, map[string]Stat{"app.Main.a()V": {Calls: 1, Self: 4e6, Total: 4e6, LateCalls: 1}}, p.Methods, "an empty slot is no record")
	assert.Equal(t, int64(0), p.Partial, "an empty slot is no exit either")
	assert.Equal(t, []string{decode.UncheckedBuildNote(p.Source, decode.MapBuild{Path: "m.txt", ID: "b1"})}, p.Notes)
	assert.Equal(t, int64(1e6), p.Resolution)
	assert.Equal(t, int64(1e6), p.LateResolution)
}

// TestReadErrors: what is not a trace with times says so, naming the
// file; a cut recording is read up to the cut, which it says.
func TestReadErrors(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "none.trace"), names(t), decode.MapBuild{})
	require.ErrorIs(t, err, os.ErrNotExist)
	bad := writeFile(t, "notes.txt", []byte("hello, this is no trace at all\n"))
	_, err = Read(bad, names(t), decode.MapBuild{})
	require.ErrorContains(t, err, bad+": not a recognised trace (")
	require.ErrorContains(t, err, "a recording of tracebeat's runtime or an AppMethodBeat buffer is")
	cut := recordingtest.Write(recordingtest.SlotsVersion, recording.RecordingClock{}, nil, 100, nil,
		recordingtest.Thread{Tid: 1, Name: "main", Records: [][2]uint64{{10, enterW(2)}, {20, exitW(2)}}})
	p, err := Read(writeFile(t, "cut.trace", cut[:len(cut)-3]), names(t), decode.MapBuild{})
	require.NoError(t, err, "a cut recording reads up to its cut")
	require.NotEmpty(t, p.Missing, "and says what it lost")
}

// binaryLE is a record as Matrix's buffer holds it in memory on a
// little-endian device.
func binaryLE(r uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(r >> (8 * i))
	}
	return b
}

// TestReadFailures: a read that fails, a recording cut in its header,
// with a record before any time or with data after its last thread, a buffer nested past the pairer's depth
// or with a line that is no record: each an error naming the file.
func TestReadFailures(t *testing.T) {
	dir := t.TempDir()
	_, err := Read(dir, names(t), decode.MapBuild{})
	require.ErrorContains(t, err, dir+": ")
	require.ErrorContains(t, err, "is a directory")

	good := recordingtest.Write(recordingtest.SlotsVersion, recording.RecordingClock{}, nil, 100, nil,
		recordingtest.Thread{Tid: 1, Name: "main", Records: [][2]uint64{{10, enterW(2)}, {20, exitW(2)}}})
	_, err = Read(writeFile(t, "head.trace", good[:12]), names(t), decode.MapBuild{})
	require.Error(t, err, "a header cut short")
	bad := bytes.Clone(good)
	// The thread's first slot, a time mark, made a record: a record before any time.
	binary.BigEndian.PutUint32(bad[len(bad)-6*4:], 2) // of its six: mark, mark, enter, mark, mark, exit
	_, err = Read(writeFile(t, "slots.trace", bad), names(t), decode.MapBuild{})
	require.ErrorContains(t, err, "a record before any time mark")
	_, err = Read(writeFile(t, "after.trace", append(bytes.Clone(good), 0)), names(t), decode.MapBuild{})
	require.ErrorContains(t, err, "data after the last thread")

	var deep bytes.Buffer
	for range decode.DefaultMaxDepth + 1 {
		deep.Write(binaryLE(uint64(decode.MakeRecord(true, 2, 1))))
	}
	path := writeFile(t, "deep.bin", deep.Bytes())
	_, err = Read(path, names(t), decode.MapBuild{})
	require.ErrorContains(t, err, path+": ")
	require.ErrorContains(t, err, "call depth exceeds")

	text := bufferText(t, [3]int{enter, 2, 1})
	data, err := os.ReadFile(text)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(text, append(data, "12x\n"...), 0o644))
	_, err = Read(text, names(t), decode.MapBuild{})
	require.ErrorContains(t, err, text+": ")
}

// TestReadLargeAndLossy: a recording longer than the sample read to tell
// its kind reads whole; a single record lost is said too.
func TestReadLargeAndLossy(t *testing.T) {
	var records [][2]uint64
	for i := range uint64(20_000) { // 20,000 slots and marks: well past 64 KiB
		records = append(records, [2]uint64{10 * i, enterW(2)}, [2]uint64{10*i + 5, exitW(2)})
	}
	data := recordingtest.Write(recordingtest.SlotsVersion, recording.RecordingClock{}, nil, 300_000, nil,
		recordingtest.Thread{Tid: 1, Name: "main", Lost: 1, Records: records})
	require.Greater(t, len(data), decode.DetectSample)
	p, err := Read(writeFile(t, "large.trace", data), names(t), decode.MapBuild{})
	require.NoError(t, err)
	assert.Equal(t, Stat{Calls: 20_000, Self: 100_000, Total: 100_000}, p.Methods["app.Main.a()V"])
	require.Len(t, p.Missing, 1)
	assert.Contains(t, p.Missing[0], "1 records lost (tid 1 \"main\")")
}
