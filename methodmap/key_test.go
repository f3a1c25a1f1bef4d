package methodmap

import (
	"math/rand"
	"strings"
	"testing"
)

// TestCompareTextMatchesString: the allocation-free comparison orders keys
// exactly as comparing their dotted text would.
func TestCompareTextMatchesString(t *testing.T) {
	parts := []string{"a/B", "a/B$1", "a/b", "a.B", "a/B/c", "a.B/c", "a/Bc", "", "foo", "foo bar", "(I)V", "(La/B;)V", "(La.B;)V", "x"}
	r := rand.New(rand.NewSource(1))
	pick := func() string { return parts[r.Intn(len(parts))] }
	for i := 0; i < 20000; i++ {
		a := MethodKey{pick(), pick(), pick()}
		b := MethodKey{pick(), pick(), pick()}
		want := strings.Compare(a.String(), b.String())
		if got := compareText(a, b); got != want {
			t.Fatalf("compareText(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}
