package flamepng

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// depths reads trace events and lists each track as pid/tid and its
// slices as name@depth, in the order laid out.
func depths(t *testing.T, in string) []string {
	t.Helper()
	tracks, err := ReadTraceEvents(strings.NewReader(in))
	require.NoError(t, err)
	var out []string
	for _, tr := range tracks {
		line := fmt.Sprintf("%d/%d %s:", tr.Pid, tr.Tid, tr.Name)
		for _, s := range tr.Slices {
			line += fmt.Sprintf(" %s@%d", s.Name, s.Depth)
		}
		out = append(out, line)
	}
	return out
}

func TestReadTraceEventsForms(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"a bare array", `[{"ph":"X","name":"a","pid":1,"tid":2,"ts":0,"dur":5}]`, []string{"1/2 : a@0"}},
		{"ids as strings: numbers read, names hashed to one track",
			`[{"ph":"X","name":"a","pid":"1","tid":"12","ts":0,"dur":5},
			  {"ph":"X","name":"b","pid":1,"tid":"worker","ts":0,"dur":5},
			  {"ph":"X","name":"c","pid":1,"tid":"worker","ts":1,"dur":1}]`,
			[]string{"1/12 : a@0", fmt.Sprintf("1/%d : b@0 c@1", fnv32a("worker"))}},
		{"a named thread without slices is no track",
			`[{"ph":"M","name":"thread_name","pid":1,"tid":3,"args":{"name":"idle"}},
			  {"ph":"M","name":"thread_name","pid":1,"tid":4,"args":{"name":"busy"}},
			  {"ph":"X","name":"a","pid":1,"tid":4,"ts":0,"dur":5}]`, []string{"1/4 busy: a@0"}},
		{"slices given late first are sorted by start",
			`[{"ph":"X","name":"late","pid":1,"tid":1,"ts":30,"dur":5},
			  {"ph":"X","name":"mid","pid":1,"tid":1,"ts":20,"dur":20},
			  {"ph":"X","name":"early","pid":1,"tid":1,"ts":0,"dur":50}]`, []string{"1/1 : early@0 mid@1 late@2"}},
		{"of one start the longer contains the shorter",
			`[{"ph":"X","name":"short","pid":1,"tid":1,"ts":0,"dur":5},
			  {"ph":"X","name":"long","pid":1,"tid":1,"ts":0,"dur":9}]`, []string{"1/1 : long@0 short@1"}},
		{"B/E of one span: the one begun first is the caller",
			`[{"ph":"B","name":"caller","pid":1,"tid":1,"ts":0},
			  {"ph":"B","name":"callee","pid":1,"tid":1,"ts":0},
			  {"ph":"E","pid":1,"tid":1,"ts":10},
			  {"ph":"E","pid":1,"tid":1,"ts":10}]`, []string{"1/1 : caller@0 callee@1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, depths(t, tc.in))
		})
	}
}

func fnv32a(s string) uint32 {
	h := uint32(2166136261)
	for i := range len(s) {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}
