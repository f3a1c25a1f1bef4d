package english

import "testing"

func TestCount(t *testing.T) {
	tests := []struct {
		n    int64
		noun string
		want string
	}{
		{0, "thread", "0 threads"},
		{1, "thread", "1 thread"},
		{2, "call", "2 calls"},
		{1, "class", "1 class"},
		{3, "class", "3 classes"},
		{2, "entry", "2 entries"},
		{2, "day", "2 days"},
		{2, "match", "2 matches"},
		{2, "method id", "2 method ids"},
	}
	for _, tc := range tests {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
