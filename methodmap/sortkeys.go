package methodmap

import (
	"runtime"
	"slices"
	"strings"
	"sync"
)

// keyed is a method's key text and its index in the caller's slice.
type keyed struct {
	text string
	i    int32
}

// sortKeyed returns the methods' indexes in the order of uniqueSorted:
// key text, then compareKeys, then access. Key texts are built once
// (comparing ready strings is several times faster than walking keys per
// comparison), and a large list is built and sorted in parts on the
// available cores, then merged: the whole build's methods are sorted
// while every worker waits for the ids.
func sortKeyed(methods []Method) []keyed {
	parts := min(runtime.GOMAXPROCS(0), 8)
	if len(methods) < 20000 {
		parts = 1
	}
	return sortKeyedIn(methods, parts)
}

func sortKeyedIn(methods []Method, parts int) []keyed {
	cmp := func(a, b keyed) int {
		if c := strings.Compare(a.text, b.text); c != 0 {
			return c
		}
		ma, mb := &methods[a.i], &methods[b.i]
		if c := compareKeys(ma.Key, mb.Key); c != 0 {
			return c
		}
		return int(ma.Access) - int(mb.Access)
	}
	ks := make([]keyed, len(methods))
	bounds := make([]int, parts+1)
	for p := range bounds {
		bounds[p] = p * len(ks) / parts
	}
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			keyTexts(methods[lo:hi], ks[lo:hi], lo)
			slices.SortFunc(ks[lo:hi], cmp)
		}(bounds[p], bounds[p+1])
	}
	wg.Wait()
	// Merge neighbouring runs until one is left.
	buf := make([]keyed, len(ks))
	for len(bounds) > 2 {
		var next []int
		for p := 0; p+1 < len(bounds); p += 2 {
			if p+2 >= len(bounds) { // an odd run out: carried over
				copy(buf[bounds[p]:], ks[bounds[p]:bounds[p+1]])
				next = append(next, bounds[p])
				continue
			}
			mergeRuns(buf[bounds[p]:bounds[p+2]], ks[bounds[p]:bounds[p+1]], ks[bounds[p+1]:bounds[p+2]], cmp)
			next = append(next, bounds[p])
		}
		next = append(next, len(ks))
		ks, buf = buf, ks
		bounds = next
	}
	return ks
}

// keyTexts fills ks with the key texts of methods (MethodKey.String)
// and their indexes from first on. The texts share one string, built
// without an allocation per method.
func keyTexts(methods []Method, ks []keyed, first int) {
	size := 0
	for _, m := range methods {
		size += len(m.Key.Class) + len(m.Key.Name) + len(m.Key.Desc) + 2
	}
	var b strings.Builder
	b.Grow(size)
	var scratch []byte
	ends := make([]int, len(methods))
	for i, m := range methods {
		scratch = appendMapText(scratch[:0], m.Key, 0) // access 0: the descriptor stays, as in String
		b.Write(scratch)
		ends[i] = b.Len()
	}
	all := b.String()
	start := 0
	for i := range methods {
		ks[i] = keyed{all[start:ends[i]], int32(first + i)}
		start = ends[i]
	}
}

// mergeRuns merges the sorted runs a and b into dst (len(a)+len(b)),
// taking from a on ties.
func mergeRuns(dst, a, b []keyed, cmp func(x, y keyed) int) {
	i, j, k := 0, 0, 0
	for i < len(a) && j < len(b) {
		if cmp(b[j], a[i]) < 0 {
			dst[k] = b[j]
			j++
		} else {
			dst[k] = a[i]
			i++
		}
		k++
	}
	k += copy(dst[k:], a[i:])
	copy(dst[k:], b[j:])
}
