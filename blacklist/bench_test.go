package blacklist

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkBlocked checks a 50k-class corpus against a few hundred rules.
func BenchmarkBlocked(b *testing.B) {
	var rules strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&rules, "-keeppackage com/vendor%d/lib/\n-keepclass com/app/feature%d/Screen%d\n", i, i%40, i)
	}
	l, err := New("")
	if err != nil {
		b.Fatal(err)
	}
	if err := l.Add(strings.NewReader(rules.String()), "bench.txt"); err != nil {
		b.Fatal(err)
	}
	classes := make([]string, 50000)
	for i := range classes {
		switch i % 4 {
		case 0:
			classes[i] = fmt.Sprintf("com/app/feature%d/Screen%d$Inner", i%40, i%600)
		case 1:
			classes[i] = fmt.Sprintf("com/vendor%d/lib/impl/Class%d", i%600, i)
		case 2:
			classes[i] = fmt.Sprintf("com/app/feature%d/R$id", i%40)
		default:
			classes[i] = fmt.Sprintf("org/other/pkg%d/Class%d", i%50, i)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range classes {
			l.Blocked(c)
		}
	}
}
