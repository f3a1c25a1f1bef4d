package decode

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpeedscopeOfInterleavedThreads: threads whose events come
// interleaved (a marker dump) still get one profile each, balanced, with
// their events in order; a recording's threads (one after another) are
// written as they end.
func TestSpeedscopeOfInterleavedThreads(t *testing.T) {
	dump := strings.Join([]string{
		"1.000000 main-1 B|9|outer",
		"1.000100 work-2 B|9|job",
		"1.000200 main-1 B|9|inner",
		"1.000300 work-2 E|9",
		"1.000400 main-1 E|9",
		"1.000500 work-2 B|9|job",
		"1.000600 main-1 E|9",
		"1.000700 work-2 E|9",
	}, "\n") + "\n"
	var out bytes.Buffer
	_, err := DecodeMarkerDump(strings.NewReader(dump), &out, FormatSpeedscope, nil)
	require.NoError(t, err)
	var doc struct {
		Profiles []struct {
			Name   string `json:"name"`
			Events []struct {
				Type  string `json:"type"`
				Frame int    `json:"frame"`
				At    int64  `json:"at"`
			} `json:"events"`
		} `json:"profiles"`
		Shared struct {
			Frames []struct{ Name string } `json:"frames"`
		} `json:"shared"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &doc), out.String())
	seqs := map[string]string{}
	for _, p := range doc.Profiles {
		var stack []int
		var seq []string
		var at int64
		for _, e := range p.Events {
			require.GreaterOrEqual(t, e.At, at)
			at = e.At
			if e.Type == "O" {
				stack = append(stack, e.Frame)
			} else {
				require.Equal(t, stack[len(stack)-1], e.Frame)
				stack = stack[:len(stack)-1]
			}
			seq = append(seq, e.Type+doc.Shared.Frames[e.Frame].Name)
		}
		require.Empty(t, stack)
		seqs[p.Name] += strings.Join(seq, " ")
	}
	require.Equal(t, map[string]string{
		"main": "Oouter Oinner Cinner Couter",
		"work": "Ojob Cjob Ojob Cjob",
	}, seqs)
}
