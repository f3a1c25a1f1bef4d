package decode

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
)

var errDiskFull = errors.New("disk full")

// failAfter takes left bytes, then fails as a full disk does.
type failAfter struct{ left int }

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) <= w.left {
		w.left -= len(p)
		return len(p), nil
	}
	n := w.left
	w.left = 0
	return n, errDiskFull
}

// TestEveryOutputReturnsItsWriteError: whatever the input and the format,
// a write that fails (at the first byte, midway, at the last) is the
// decode's error, never a short output taken for a whole one.
func TestEveryOutputReturnsItsWriteError(t *testing.T) {
	beat, err := os.ReadFile(filepath.Join("testdata", "sample", "beat.txt"))
	require.NoError(t, err)
	inputs := map[string][]byte{
		"recording": writeRecording(90_000, map[int]string{0: "inflate"},
			testThread{Tid: 1, Name: "main", Records: [][2]uint64{
				{1000, enterW(1)}, {2500, enterW(2)}, {7_500, exitW(2)}, {8000, enterW(recording.SectionID(0))}, {9000, exitW(recording.SectionID(0))}, {60_000, exitW(1)},
			}},
			testThread{Tid: 9, Name: "pool-1-thread-1", Lost: 7, Records: [][2]uint64{{3000, exitW(3)}, {4000, enterW(1)}}}),
		"recording with a report": reportRecording(recording.Report{Kind: recording.ReportSlow, Tid: 1, Thread: "main", Entered: 20_000, End: 732_000}, 2, false),
		"buffer":                  encodeBinary([]Record{I(1, 10), I(2, 12), O(2, 20), O(1, 30)}, binary.BigEndian),
		"buffer text":             beat,
		"systrace": []byte("# tracer: nop\n" +
			"           <...>-1234  ( 1234) [001] ...1 100.000100: tracing_mark_write: B|1234|2\n" +
			"           <...>-1234  ( 1234) [001] ...1 100.000200: tracing_mark_write: E|1234\n"),
		"marker dump":  []byte(markerDump),
		"stack report": []byte(evilMethodIssue),
	}
	combos := 0
	formats := []Format{FormatText, FormatJSON, FormatSystrace, FormatPerfetto, FormatArt, FormatSpeedscope, FormatHTML}
	for name, in := range inputs {
		for _, format := range formats {
			var whole bytes.Buffer
			if _, err := Decode(bytes.NewReader(in), &whole, Options{Format: format, Names: testNames(t), TempDir: t.TempDir()}); err != nil {
				continue // a format this input does not take
			}
			combos++
			n := whole.Len()
			require.NotZero(t, n, "%s as %s", name, format)
			for _, at := range []int{0, n / 2, n - 1} {
				_, err := Decode(bytes.NewReader(in), &failAfter{left: at}, Options{Format: format, Names: testNames(t), TempDir: t.TempDir()})
				assert.ErrorContains(t, err, "disk full", "%s as %s, failing after %d of %d bytes", name, format, at, n)
			}
		}
	}
	// 46 here: each input in each format it takes
	assert.GreaterOrEqual(t, combos, 40)
}
