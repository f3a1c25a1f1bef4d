package javatest

import (
	"reflect"
	"testing"
)

func TestCompare(t *testing.T) {
	before := VerifyResult{OK: []string{"a.A", "a.B", "a.C", "a.D", "a.E"}}
	tests := []struct {
		name   string
		after  VerifyResult
		unread map[string]string
		want   Comparison
	}{
		{"all kept", VerifyResult{OK: []string{"a.A", "a.B", "a.C", "a.D", "a.E", "a.F"}}, nil, Comparison{}},
		{"one of each kind lost", VerifyResult{
			OK:           []string{"a.A", "a.E"},
			VerifyErrors: map[string]string{"a.B": "Bad type on operand stack"},
			Failovers:    []string{"a.C"},
			LinkErrors:   map[string]string{"a.D": "NoClassDefFoundError: x/Y"},
		}, nil, Comparison{
			Lost:            []string{"a.B: Bad type on operand stack", "a.C: failed over to the old verifier", "a.D: NoClassDefFoundError: x/Y"},
			NewVerifyErrors: 1, NewFailovers: 1, NewLinkErrors: 1,
		}},
		{"unread counts only classes accepted before, by either name form",
			VerifyResult{OK: []string{"a.A", "a.B", "a.C", "a.D", "a.E"}},
			map[string]string{"a/B": "truncated", "a.E": "bad pool", "z/Never": "was never valid"},
			Comparison{Unread: []string{"a.B: truncated", "a.E: bad pool"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Compare(before, tc.after, tc.unread)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Compare = %+v\nwant %+v", got, tc.want)
			}
			if got.Failed() != (len(tc.want.Lost)+len(tc.want.Unread) > 0) {
				t.Errorf("Failed() = %v", got.Failed())
			}
		})
	}
}
