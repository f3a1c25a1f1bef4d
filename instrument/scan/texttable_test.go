package scan

import (
	"fmt"
	"sync"
	"testing"
)

// TestTextTableInterns: equal texts share an index, different ones do
// not, and every index reads back its text, through the table's growth
// and while other goroutines intern.
func TestTextTableInterns(t *testing.T) {
	tab := NewTextTable()
	const n = 50_000 // past several doublings of the slots and arena chunks
	text := func(i int) string { return fmt.Sprintf("(Ljava/lang/String;I)V#%d", i) }
	index := make([]uint32, n)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < n; i += 4 {
				k, ok := tab.intern(text(i))
				if !ok {
					t.Errorf("intern(%q) refused", text(i))
					return
				}
				index[i] = k
			}
		})
	}
	wg.Wait()
	seen := map[uint32]int{}
	for i, k := range index {
		if j, dup := seen[k]; dup {
			t.Fatalf("texts %d and %d share index %d", j, i, k)
		}
		seen[k] = i
		if got := tab.Str(k); got != text(i) {
			t.Fatalf("str(%d) = %q, want %q", k, got, text(i))
		}
		if again, _ := tab.intern(text(i)); again != k {
			t.Fatalf("intern(%q) again gave %d, first %d", text(i), again, k)
		}
	}
	for _, s := range []string{"", "<init>", ""} {
		k, _ := tab.intern(s)
		if tab.Str(k) != s {
			t.Errorf("str(intern(%q)) = %q", s, tab.Str(k))
		}
	}
	if int(tab.n) != n+2 {
		t.Errorf("table holds %d texts, want %d", tab.n, n+2)
	}
}

// TestTextTableInternBytesCopies: a text interned from bytes is the
// table's own copy; the caller's buffer may change after.
func TestTextTableInternBytesCopies(t *testing.T) {
	tab := NewTextTable()
	buf := []byte("(La/B;)V")
	k, ok := tab.InternBytes(buf)
	if !ok {
		t.Fatal("internBytes refused")
	}
	copy(buf, "XXXXXXXX")
	if got := tab.Str(k); got != "(La/B;)V" {
		t.Fatalf("str = %q after the buffer changed", got)
	}
	if again, _ := tab.intern("(La/B;)V"); again != k {
		t.Errorf("intern gave %d, internBytes %d", again, k)
	}
	if e, _ := tab.InternBytes(nil); tab.Str(e) != "" {
		t.Errorf("empty bytes read %q", tab.Str(e))
	}
}
