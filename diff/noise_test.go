package diff

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// atRank is the q quantile as the guard defines it: the value at rank q·n
// of the sorted values, the last at most.
func atRank(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// TestQuantilesAtAnyRank: quantile and othersQuantile at ranks other than
// the guard's 0.9 (0, a half, 1): the value at rank q·n, of the others'
// for othersQuantile.
func TestQuantilesAtAnyRank(t *testing.T) {
	spreads := []float64{0.5, 7, 7, 2, 30, 1, 1, 12, 3, 3, 8}
	for _, q := range []float64{0, 0.5, 0.9, 1} {
		assert.Equal(t, atRank(spreads, q), quantile(slices.Clone(spreads), q), "q %v", q)
		others := othersQuantile(spreads, q)
		for i, own := range spreads {
			rest := append(slices.Clone(spreads[:i]), spreads[i+1:]...)
			assert.Equal(t, atRank(rest, q), others(own), "q %v without %v", q, own)
		}
	}
}

// TestNoiseHides: a move within the noise, in milliseconds or on the log
// scale, its bound included.
func TestNoiseHides(t *testing.T) {
	ms := noise{ms: 2, inMs: true}
	assert.True(t, ms.hides(10, 12), "2 ms: at the bound")
	assert.True(t, ms.hides(10, 8.5))
	assert.False(t, ms.hides(10, 12.01))
	log := noise{log: math.Log(1.5)}
	assert.True(t, log.hides(10, 15), "half again: at the bound")
	assert.True(t, log.hides(15, 11))
	assert.False(t, log.hides(10, 15.01))
	assert.False(t, log.hides(15, 9.9))
}

// TestSizeNoise: a method with ten of its size (within a factor of two,
// the edges included) gets the 0.9 quantile of those ten's spreads, on the
// log scale; one with fewer (5 or 20 beside eight of 10 and each other:
// nine) gets the 0.9 quantile of the other methods' spreads in
// milliseconds, each spread the larger of its method's two sides'.
func TestSizeNoise(t *testing.T) {
	var ms []Method
	var samples []sample
	var runMs [][2][]float64
	add := func(size float64, base, next []float64) {
		ms = append(ms, Method{SelfMsBase: size, SelfMsNew: size})
		samples = append(samples, sample{base: logTimes(base), next: logTimes(next)})
		runMs = append(runMs, [2][]float64{base, next})
	}
	for i, size := range []float64{10, 5, 20, 10, 10, 10, 10, 10, 10, 10} {
		k := 1 + float64(i)/100
		add(size, []float64{size, size * k, size}, []float64{size, size, size})
	}
	// Far from them and from each other, spread in BASE or in NEW, or not.
	add(1000, []float64{1000, 1001, 1002}, []float64{1000, 1000, 1000})
	add(100000, []float64{100000, 100000, 100000}, []float64{100000, 100006, 100012})
	add(1e7, []float64{1e7, 1e7, 1e7}, []float64{1e7, 1e7, 1e7})
	add(1e9, []float64{1e9, 1e9 + 25, 1e9 + 50}, []float64{1e9, 1e9, 1e9})
	out := sizeNoise(ms, samples, runMs, Options{})
	require.Len(t, out, len(ms))

	spread := func(xs []float64) float64 { return noiseWidth * math.Sqrt(variance(xs)) }
	var logOfTen, msSpreads []float64
	for i := range ms {
		msSpreads = append(msSpreads, max(spread(runMs[i][0]), spread(runMs[i][1])))
		if i < 10 {
			logOfTen = append(logOfTen, max(spread(samples[i].base), spread(samples[i].next)))
		}
	}
	for i := range ms {
		if i < 10 && i != 1 && i != 2 {
			assert.False(t, out[i].inMs, "method %d has ten of its size", i)
			assert.Equal(t, atRank(logOfTen, noiseQuantile), out[i].log, "method %d", i)
			continue
		}
		others := append(slices.Clone(msSpreads[:i]), msSpreads[i+1:]...)
		assert.True(t, out[i].inMs, "method %d has fewer than ten of its size", i)
		assert.Equal(t, atRank(others, noiseQuantile), out[i].ms, "method %d", i)
	}
	assert.Equal(t, spread([]float64{100000, 100006, 100012}), out[12].ms, "the second method's NEW spread, at rank 11 of 13")
}
