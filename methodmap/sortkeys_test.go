package methodmap

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeyedInParts sorts the same methods in 1..7 parts: every split
// (odd run counts included) must give the order of one plain sort.
func TestSortKeyedInParts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var methods []Method
	for i := 0; i < 3000; i++ {
		k := MethodKey{Class: fmt.Sprintf("p/C%d", r.IntN(60)), Name: fmt.Sprintf("m%d", r.IntN(40)), Desc: fmt.Sprintf("(%c)V", "IJZ"[r.IntN(3)])}
		methods = append(methods, Method{Key: k, Access: uint16(r.IntN(3))})
	}
	want := make([]Method, len(methods))
	copy(want, methods)
	slices.SortStableFunc(want, func(a, b Method) int {
		if c := compareKeys(a.Key, b.Key); c != 0 {
			return c
		}
		return int(a.Access) - int(b.Access)
	})
	for parts := 1; parts <= 7; parts++ {
		got := sortKeyedIn(methods, parts)
		if len(got) != len(methods) {
			t.Fatalf("%d parts: %d results for %d methods", parts, len(got), len(methods))
		}
		for i, k := range got {
			if m := methods[k.i]; m != want[i] {
				t.Fatalf("%d parts: position %d is %v, want %v", parts, i, m, want[i])
			}
		}
	}
}
