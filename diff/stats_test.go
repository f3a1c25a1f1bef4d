package diff

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSpecialFunctions against values from SciPy (scipy.special.digamma,
// polygamma, betainc; scipy.stats.t and norm).
func TestSpecialFunctions(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"digamma(1)", digamma(1), -0.5772156649015329},
		{"digamma(0.5)", digamma(0.5), -1.963510026021423},
		{"digamma(10)", digamma(10), 2.251752589066721},
		{"trigamma(1)", trigamma(1), 1.644934066848226},
		{"trigamma(2.5)", trigamma(2.5), 0.4903577561002349},
		{"tetragamma(1)", tetragamma(1), -2.404113806319188},
		{"tetragamma(3.2)", tetragamma(3.2), -0.13280000680313123},
		{"trigammaInverse(trigamma(2.5))", trigammaInverse(trigamma(2.5)), 2.5},
		{"trigammaInverse(trigamma(40))", trigammaInverse(trigamma(40)), 40},
		{"pbeta(0.3; 2, 3)", regIncBeta(2, 3, 0.3), 0.34829999999999994},
		{"pbeta(0.9; 0.5, 5)", regIncBeta(0.5, 5, 0.9), 0.9999974294103009},
		{"2*pt(-2.5, 4)", twoSidedP(2.5, 4), 0.06676654481198814},
		{"2*pt(-6, 10)", twoSidedP(-6, 10), 0.00013210886035478557},
		{"2*pnorm(-1.96)", twoSidedP(1.96, math.Inf(1)), 0.04999579},
	} {
		assert.InEpsilon(t, c.want, c.got, 1e-4, c.name)
	}
}

// TestBenjaminiHochberg against R's p.adjust(p, "BH").
func TestBenjaminiHochberg(t *testing.T) {
	q := benjaminiHochberg([]float64{0.01, 0.04, 0.03, 0.2, 0.001})
	want := []float64{0.025, 0.05, 0.05, 0.2, 0.005}
	for i := range want {
		assert.InDelta(t, want[i], q[i], 1e-12)
	}
}

// TestFitPrior: variances drawn from one scaled chi-square give back its
// scale, and a d0 large against the methods' own df; variances that
// differ widely give a small d0.
func TestFitPrior(t *testing.T) {
	same := make([]float64, 400)
	for i := range same {
		// quantiles of s0² χ²(4)/4 with s0² = 0.09
		same[i] = 0.09 * chiSquareQuantile(4, (float64(i)+0.5)/400) / 4
	}
	p := fitPrior(same, 4)
	assert.InEpsilon(t, 0.09, p.s02, 0.05)
	assert.Greater(t, p.d0, 50.0, "the variances agree: the prior is worth much")
	wide := make([]float64, 400)
	for i := range wide {
		wide[i] = same[i] * math.Exp(float64(i%10)-4.5)
	}
	assert.Less(t, fitPrior(wide, 4).d0, 5.0, "the variances disagree: each method's own counts")
}

// chiSquareQuantile inverts the chi-square CDF (df even: a closed form) by bisection.
func chiSquareQuantile(df int, p float64) float64 {
	cdf := func(x float64) float64 {
		sum, term := 0.0, 1.0
		for k := 0; k < df/2; k++ {
			if k > 0 {
				term *= (x / 2) / float64(k)
			}
			sum += term
		}
		return 1 - math.Exp(-x/2)*sum
	}
	lo, hi := 0.0, 200.0
	for range 100 {
		mid := (lo + hi) / 2
		if cdf(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// TestOthersQuantile: the quantile of the other spreads, against leaving
// each one out and taking the quantile of the rest, ties included.
func TestOthersQuantile(t *testing.T) {
	for _, spreads := range [][]float64{
		{5},
		{1, 2},
		{3, 1, 2},
		{4, 4, 4, 1, 9},
		{0.5, 7, 7, 2, 30, 1, 1, 12, 3, 3, 8},
	} {
		others := othersQuantile(spreads, noiseQuantile)
		for i, own := range spreads {
			rest := append(slices.Clone(spreads[:i]), spreads[i+1:]...)
			want := 0.0
			if len(rest) > 0 {
				want = quantile(rest, noiseQuantile)
			}
			assert.Equal(t, want, others(own), "%v without %v", spreads, own)
		}
	}
}
