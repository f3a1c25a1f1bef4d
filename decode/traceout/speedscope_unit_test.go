package traceout_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/decode/traceout"
)

// speedscopeProfiles reads speedscope's file format (its schema's fields:
// shared frames, evented profiles of O/C events) into a line a profile.
func speedscopeProfiles(t *testing.T, data []byte) []string {
	t.Helper()
	var doc struct {
		Shared struct {
			Frames []struct{ Name string } `json:"frames"`
		} `json:"shared"`
		Profiles []struct {
			Type, Name, Unit string
			StartValue       int64 `json:"startValue"`
			EndValue         int64 `json:"endValue"`
			Events           []struct {
				Type  string
				Frame int
				At    int64
			}
		}
	}
	require.NoError(t, json.Unmarshal(data, &doc), "%s", data)
	var out []string
	for _, p := range doc.Profiles {
		require.Equal(t, "evented", p.Type)
		require.Equal(t, "nanoseconds", p.Unit)
		line := fmt.Sprintf("%s [%d,%d]:", p.Name, p.StartValue, p.EndValue)
		for _, e := range p.Events {
			line += fmt.Sprintf(" %s%s@%d", e.Type, doc.Shared.Frames[e.Frame].Name, e.At)
		}
		out = append(out, line)
	}
	return out
}

// TestSpeedscopeWriter: a thread is written as its events come, and ended
// when another starts if its calls all have their ends; a thread with a
// begin still open goes on streaming, and a thread starting meanwhile is
// held and written at the close; times that go back are written as the
// last.
func TestSpeedscopeWriter(t *testing.T) {
	var out bytes.Buffer
	w := traceout.NewSpeedscopeWriter(&out)
	for _, e := range []traceout.Event{
		{Ph: 'M', Name: "thread_name", Pid: 1, Tid: 1, Args: []traceout.Arg{traceout.StrArg("name", "main")}},
		{Ph: 'X', Name: "a", Pid: 1, Tid: 1, TsNs: 100, DurNs: 50},
		{Ph: 'X', Name: "b", Pid: 1, Tid: 1, TsNs: 110, DurNs: 100}, // cut to a's end
		{Ph: 'X', Name: "a", Pid: 1, Tid: 1, TsNs: 200, DurNs: 10},
		{Ph: 'B', Name: "s", Pid: 1, Tid: 2, TsNs: 50},
		{Ph: 'X', Name: "c", Pid: 1, Tid: 3, TsNs: 60, DurNs: 5},
		{Ph: 'X', Name: "d", Pid: 1, Tid: 2, TsNs: 40, DurNs: 5}, // earlier than thread 2's last
		{Ph: 'E', Pid: 1, Tid: 2, TsNs: 300},
		{Ph: 'E', Pid: 1, Tid: 2, TsNs: 310}, // nothing open
	} {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	assert.Equal(t, []string{
		"main [100,210]: Oa@100 Ob@110 Cb@150 Ca@150 Oa@200 Ca@210",
		"tid 2 [50,300]: Os@50 Od@50 Cd@50 Cs@300",
		"tid 3 [60,65]: Oc@60 Cc@65",
	}, speedscopeProfiles(t, out.Bytes()))
}

// TestSpeedscopeThreadComesBack: a thread whose profile was ended gets
// events again after another thread's: they make a second profile of it,
// numbered, written at the close, while the other goes on streaming.
func TestSpeedscopeThreadComesBack(t *testing.T) {
	var out bytes.Buffer
	w := traceout.NewSpeedscopeWriter(&out)
	for _, e := range []traceout.Event{
		{Ph: 'X', Name: "a", Pid: 1, Tid: 1, TsNs: 0, DurNs: 10},
		{Ph: 'X', Name: "b", Pid: 1, Tid: 2, TsNs: 20, DurNs: 10},
		{Ph: 'X', Name: "a", Pid: 1, Tid: 1, TsNs: 40, DurNs: 10},
		{Ph: 'X', Name: "b", Pid: 1, Tid: 2, TsNs: 60, DurNs: 10},
		{Ph: 'X', Name: "a", Pid: 1, Tid: 1, TsNs: 80, DurNs: 10},
	} {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	assert.Equal(t, []string{
		"tid 1 [0,10]: Oa@0 Ca@10",
		"tid 2 [20,70]: Ob@20 Cb@30 Ob@60 Cb@70",
		"tid 1 (2) [40,90]: Oa@40 Ca@50 Oa@80 Ca@90",
	}, speedscopeProfiles(t, out.Bytes()))
}

// TestJSONNames: names are quoted byte for byte where they are valid
// UTF-8 (U+FFFD itself too), and each invalid byte becomes U+FFFD.
func TestJSONNames(t *testing.T) {
	for name, want := range map[string]string{
		"plain":           `"plain"`,
		"é and \uFFFD":    "\"é and \uFFFD\"",
		"\x80":            `"\ufffd"`,
		"a\xffb\xc3":      `"a\ufffdb\ufffd"`,
		"q\"\\\n\r\t\x01": `"q\"\\\n\r\t\u0001"`,
		"\x7f":            "\"\x7f\"",
	} {
		var out bytes.Buffer
		w := traceout.NewJSONWriter(&out)
		require.NoError(t, w.Write(traceout.Event{Ph: 'X', Name: name, Pid: 1, Tid: 1}))
		require.NoError(t, w.Close())
		assert.Contains(t, out.String(), `{"name":`+want+`,`, "%q", name)
		assert.True(t, json.Valid(out.Bytes()), "%q", name)
	}
}
