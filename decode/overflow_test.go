package decode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/recording"
)

// TestHugeTimes: times at the edge of what a recording may hold (just
// under recording.MaxTime, 146 years) give durations that stay positive in
// every output, and a time past it is named as damage. (A fuzzed file once
// gave the JSON durations of -1.5e18 where Perfetto had 10.)
func TestHugeTimes(t *testing.T) {
	const edge = recording.MaxTime - 1
	thread := testThread{Tid: 1, Name: "main", Records: [][2]uint64{
		{10, enterW(1)}, {20, enterW(2)}, {edge, exitW(2)}, {edge, enterW(3)},
	}}
	data := writeRecordingAs(1, recording.RecordingClock{}, edge, nil, thread)
	for _, f := range []Format{FormatJSON, FormatPerfetto, FormatSpeedscope, FormatArt, FormatHTML, FormatText} {
		var out bytes.Buffer
		_, err := Decode(bytes.NewReader(data), &out, Options{Format: f, Source: "app.trace"})
		if f == FormatArt {
			assert.ErrorContains(t, err, "counts 32 bits of microseconds (71 minutes); this trace runs longer")
			continue
		}
		require.NoError(t, err, f)
		switch f {
		case FormatJSON:
			var doc struct {
				TraceEvents []struct {
					Ph  string
					Dur float64
				} `json:"traceEvents"`
			}
			require.NoError(t, json.Unmarshal(out.Bytes(), &doc))
			for _, e := range doc.TraceEvents {
				assert.GreaterOrEqual(t, e.Dur, 0.0)
			}
		case FormatText:
			assert.NotContains(t, out.String(), " -", "no negative cost in the summary")
			assert.Contains(t, out.String(), fmt.Sprint(uint64(edge-10)/1000))
		}
	}
	past := writeRecordingAs(1, recording.RecordingClock{}, 0, nil, testThread{Tid: 1, Name: "main", Records: [][2]uint64{
		{10, enterW(1)}, {recording.MaxTime, exitW(1)},
	}})
	_, err := Decode(bytes.NewReader(past), &bytes.Buffer{}, Options{Source: "app.trace"})
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "over 146 years): damaged file?"), err.Error())
}
