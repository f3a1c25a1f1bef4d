package decode

import (
	"bufio"
	"bytes"
	"errors"
	"testing"

	"github.com/tracebeat/tracebeat/decode/recording"

	"github.com/stretchr/testify/require"
)

// TestRecordingBuildIsChecked: a recording that names builds refuses the
// map of another (a WrongMapError naming both), takes its own, says what
// it cannot check when it names none, and decodes anyway when forced.
func TestRecordingBuildIsChecked(t *testing.T) {
	thread := testThread{Tid: 1, Name: "main", Records: [][2]uint64{{10, enterW(1)}, {20, exitW(1)}}}
	named := writeRecordingOf(slotsVersion, recording.RecordingClock{}, []string{"00000000000000aa", "00000000000000bb"}, 30, nil, thread)
	unnamed := writeRecordingOf(slotsVersion, recording.RecordingClock{}, nil, 30, nil, thread)
	for _, tc := range []struct {
		name  string
		data  []byte
		m     MapBuild
		err   string
		notes []string
	}{
		{"its own map", named, MapBuild{Path: "m.txt", ID: "00000000000000bb"}, "", nil},
		{"no map", named, MapBuild{}, "", nil},
		{"another build's map", named, MapBuild{Path: "old/m.txt", ID: "00000000000000cc"},
			"app.trace was recorded from build 00000000000000aa and 00000000000000bb, but old/m.txt is the map of build 00000000000000cc: its ids name other methods", nil},
		{"forced", named, MapBuild{Path: "old/m.txt", ID: "00000000000000cc", Force: true}, "",
			[]string{"warning: old/m.txt is the map of build 00000000000000cc, and app.trace was recorded from build 00000000000000aa and 00000000000000bb: names may be another build's (--any-map)"}},
		{"a recording naming no build", unnamed, MapBuild{Path: "m.txt", ID: "00000000000000cc"}, "",
			[]string{"app.trace names no build (recorded by a runtime before version 3, from classes instrumented before build identities, or loaded by a class loader of the program's own; -Dtracebeat.build=ID names it): that m.txt is its build's map cannot be checked"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			res, err := Decode(bytes.NewReader(tc.data), &out, Options{Source: "app.trace", Map: tc.m})
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				var wrong *WrongMapError
				require.True(t, errors.As(err, &wrong))
				require.Zero(t, out.Len(), "nothing is written with the wrong map")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.notes, res.Notes)
		})
	}
}

// TestShortMarksKeepTheHighBits: from version 3 on a mark may be its low
// slot alone, and takes the high bits of the last full mark; before, a low
// slot alone is damage.
func TestShortMarksKeepTheHighBits(t *testing.T) {
	base := uint64(5) << 28
	thread := testThread{Tid: 1, Name: "main", Records: [][2]uint64{{base + 10, enterW(1)}, {base + 20, exitW(1)}}}
	full := writeRecordingOf(slotsVersion, recording.RecordingClock{}, nil, base+30, nil, thread)
	// The second mark (slots: high, low, enter, high, low, exit) made short: drop its high slot.
	n := len(full)
	short := append(bytes.Clone(full[:n-12]), full[n-8:]...)
	// The thread's slot count (the u32 before the slots) is one less.
	slotCount := n - 6*4 - 4
	short[slotCount+3]--
	var got []uint64
	rec, err := recording.Read(newBufReader(short), "short")
	require.NoError(t, err)
	_, err = rec.NextThread()
	require.NoError(t, err)
	require.NoError(t, rec.Records(func(_ bool, _ int, t uint64) error { got = append(got, t); return nil }))
	require.Equal(t, []uint64{base + 10, base + 20}, got)

	v2 := writeRecordingAs(2, recording.RecordingClock{}, base+30, nil, thread)
	n = len(v2)
	shortV2 := append(bytes.Clone(v2[:n-12]), v2[n-8:]...)
	shortV2[n-6*4-4+3]--
	_, err = Decode(bytes.NewReader(shortV2), &bytes.Buffer{}, Options{})
	require.ErrorContains(t, err, "the second half of a time mark without the first")
}

func newBufReader(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }
