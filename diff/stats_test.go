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

// TestSpecialFunctionsToTheirAccuracy: the special functions against
// values at 40 digits (testdata/special_reference.py, mpmath), each to
// what its method reaches: the digamma series stops at x⁻¹⁰ (an error of
// 9e-12 at x = 6), trigamma's at x⁻⁹ (near 2e-10), tetragamma's at x⁻¹¹;
// the continued fraction runs to 1e-14. The points take the recurrence
// (below 6) and the series alone (6 and above), and both of the beta
// function's branches.
func TestSpecialFunctionsToTheirAccuracy(t *testing.T) {
	polygamma := []struct{ x, digamma, trigamma, tetragamma float64 }{
		{0.3, -3.5025242222001331249, 12.245364546107731301, -75.272536588726038917},
		{1, -0.57721566490153286061, 1.6449340668482264365, -2.4041138063191885708},
		{2.5, 0.70315664064524318723, 0.49035775610023486497, -0.236204051641727403},
		{5.5, 1.6110931485817511237, 0.19934238698962765913, -0.039608947521302042971},
		{6, 1.7061176684318004727, 0.18132295573711532536, -0.032789732245114496725},
		{6.5, 1.7929113303999329419, 0.16628453574995823764, -0.027587910706876798794},
		{11, 2.3517525890667211076, 0.095166335681685746122, -0.0090498349708020674621},
		{40, 3.6763273740348431259, 0.025315103841291028158, -0.00064082027183529858776},
	}
	for _, c := range polygamma {
		assert.InDelta(t, c.digamma, digamma(c.x), 1.2e-11, "digamma(%v)", c.x)
		assert.InDelta(t, c.trigamma, trigamma(c.x), 3e-10, "trigamma(%v)", c.x)
		assert.InDelta(t, c.tetragamma, tetragamma(c.x), 6e-11, "tetragamma(%v)", c.x)
	}
	for _, c := range []struct{ y, x float64 }{
		{0.05, 20.495835239154604799},
		{0.3, 3.8087190120511670098},
		{1.0, 1.4262551202150789904},
		{4.0, 0.56638598899901324274},
		{50.0, 0.1433798123528614777},
		{1e7, 0.00031622779201351696097}, // the last y solved, not approximated
		{1e-6, 1000000.4999999167119},
	} {
		assert.InEpsilon(t, c.x, trigammaInverse(c.y), 1e-9, "trigammaInverse(%v)", c.y)
	}
	for _, c := range []struct{ a, b, x, want float64 }{
		{2, 3, 0.3, 0.34829999999999998042},
		{0.5, 5, 0.9, 0.99999742941030077063},
		{3, 0.5, 0.2, 0.002713682035093795867},
		{3, 0.5, 0.95, 0.59450304770527234421},
		{10, 0.5, 0.7, 0.0083225048624642059353},
		{1.5, 0.5, 0.5, 0.18169011381620932846},
		{25, 0.5, 0.9, 0.022379021614203358275},
	} {
		assert.InEpsilon(t, c.want, regIncBeta(c.a, c.b, c.x), 1e-13, "I_%v(%v, %v)", c.x, c.a, c.b)
	}
	for _, c := range []struct{ t, df, want float64 }{
		{2.5, 4, 0.066766544811988145039},
		{-6, 10, 0.00013210886035478560424},
		{0.3, 3, 0.78376329203991904229},
		{1.2, 7.5, 0.26666892279322206083},
		{3.1, 60, 0.0029457486693675822754},
		{0.05, 2, 0.96466673733312133208},
	} {
		assert.InEpsilon(t, c.want, twoSidedP(c.t, c.df), 1e-13, "p of t=%v with %v df", c.t, c.df)
	}
}

// TestFitPriorAndModeratedTAgainstTheFormulas: the prior and one method's
// moderated t against Smyth's formulas evaluated at 40 digits
// (testdata/special_reference.py); a variance of 0 says nothing and is
// left out; one variance is the prior itself, worth the methods' own
// degrees of freedom; none gives no prior.
func TestFitPriorAndModeratedTAgainstTheFormulas(t *testing.T) {
	p := fitPrior([]float64{0.02, 0.05, 0.11, 0.07, 0.3, 0.04, 0, 0.09}, 4)
	assert.InEpsilon(t, 0.088127630845004552009, p.s02, 1e-9)
	// d0 to the 1e-8 at which trigammaInverse stops
	assert.InEpsilon(t, 24.446637176954892488, p.d0, 1e-8)
	two := fitPrior([]float64{0.02, 0.5}, 2)
	assert.InEpsilon(t, 0.064882972523286955596, two.s02, 1e-9, "two variances are enough to fit")
	assert.InEpsilon(t, 1.2206853566486478071, two.d0, 1e-9)
	one := fitPrior([]float64{0, 0.3}, 4)
	assert.InEpsilon(t, 0.3, one.s02, 1e-12)
	assert.Equal(t, 4.0, one.d0)
	assert.Equal(t, prior{}, fitPrior([]float64{0, 0}, 4))
	assert.Equal(t, prior{}, fitPrior(nil, 4))

	tt, df := moderatedT(sample{base: []float64{1.0, 1.3, 0.9}, next: []float64{1.6, 1.4, 1.9}}, p)
	assert.InEpsilon(t, 2.4055819029712899399, tt, 1e-9)
	assert.InEpsilon(t, 28.446637176954892488, df, 1e-8)
}

// TestMeanVarKeepsItsDigits: the variance is taken around the mean, so
// times far from 0 keep their spread (the sum of squares less n·mean²
// would lose it to rounding).
func TestMeanVarKeepsItsDigits(t *testing.T) {
	m, v := meanVar([]float64{1e9 + 1, 1e9 + 2, 1e9 + 3})
	assert.Equal(t, 1e9+2, m)
	assert.Equal(t, 1.0, v)
	// A mean that is not exact: its rounding, times the times' size,
	// would swamp a variance of 0.02.
	xs := []float64{1e9 + 0.1, 1e9 + 0.2, 1e9 + 0.4}
	_, v = meanVar(xs)
	_, want := meanVar([]float64{xs[0] - 1e9, xs[1] - 1e9, xs[2] - 1e9}) // exact differences
	assert.InEpsilon(t, want, v, 1e-6)
}

// TestPooledVariance: each side's variance weighted by its own degrees of
// freedom, whichever side has one run only.
func TestPooledVariance(t *testing.T) {
	v, df := sample{base: []float64{4}, next: []float64{1, 3}}.pooled()
	assert.Equal(t, 1, df)
	assert.Equal(t, 2.0, v, "the one-run side adds nothing")
	v, df = sample{base: []float64{1, 2, 6}, next: []float64{5}}.pooled()
	assert.Equal(t, 2, df)
	assert.InDelta(t, 7.0, v, 1e-12)
	v, df = sample{base: []float64{1, 2, 6}, next: []float64{2, 4, 9}}.pooled()
	assert.Equal(t, 4, df)
	assert.InDelta(t, (14.0+26.0)/4, v, 1e-12)
	assert.Equal(t, 3.0, medianOf([]float64{5, 1, 3, 4, 2}))
}

// TestNormalizeRuns: times made of a method's level and a run's offset
// come back level in every run, offsets taken from the methods in every
// run and above the floor only (the others, many and far off, would move
// the median), and taken from those too; the return is NEW's slowdown.
// Fewer than minMethodsToNormalize complete methods change nothing.
func TestNormalizeRuns(t *testing.T) {
	offsets := []float64{0.1, -0.2, 0.4, 0.3, 0.5}
	build := func(complete, partial, floored int) []sample {
		var out []sample
		for i := range complete + partial + floored {
			level := 1 + float64(i)/10
			s := sample{}
			for r, o := range offsets {
				x := level + o
				switch {
				case i >= complete+partial:
					x = level + 9*float64(r) // far off, but one run at the floor
					if r == 0 {
						x = math.Log(logFloorMs)
					}
				case i >= complete && r == 4:
					continue // a run without the method
				}
				if r < 2 {
					s.base = append(s.base, x)
				} else {
					s.next = append(s.next, x)
				}
			}
			out = append(out, s)
		}
		return out
	}
	samples := build(minMethodsToNormalize, 40, 40)
	slower := normalizeRuns(samples)
	assert.InDelta(t, math.Exp(0.4-(-0.05))-1, slower, 1e-12, "NEW's mean offset less BASE's")
	mean := 0.22 // the offsets' mean, left in every time
	for i, s := range samples[:minMethodsToNormalize+40] {
		level := 1 + float64(i)/10
		for _, x := range append(s.base, s.next...) {
			assert.InDelta(t, level+mean, x, 1e-12, "method %d: %v", i, s)
		}
	}
	few := build(minMethodsToNormalize-1, 0, 0)
	assert.True(t, math.IsNaN(normalizeRuns(few)))
	assert.Equal(t, 1.1, few[0].base[0], "unchanged")
}

// TestModeratedTAtItsEnds: a prior of infinite worth is the variance
// itself, with infinite degrees of freedom; a prior worth nothing leaves
// the method's own; no spread at all gives 0 for equal means and an
// infinite t, signed, for different ones; sides of different sizes.
func TestModeratedTAtItsEnds(t *testing.T) {
	s := sample{base: []float64{1.0, 1.3, 0.9}, next: []float64{1.6, 1.4, 1.9, 1.5, 1.7}}
	mb, mn := (1.0+1.3+0.9)/3, (1.6+1.4+1.9+1.5+1.7)/5
	v, d := s.pooled()
	scale := math.Sqrt(1.0/3 + 1.0/5)
	tt, df := moderatedT(s, prior{s02: 0.04, d0: math.Inf(1)})
	assert.InDelta(t, (mn-mb)/(0.2*scale), tt, 1e-12)
	assert.True(t, math.IsInf(df, 1))
	tt, df = moderatedT(s, prior{})
	assert.InDelta(t, (mn-mb)/(math.Sqrt(v)*scale), tt, 1e-12)
	assert.Equal(t, float64(d), df)
	tt, df = moderatedT(s, prior{s02: 0.04, d0: 2})
	assert.InDelta(t, (mn-mb)/(math.Sqrt((2*0.04+float64(d)*v)/(2+float64(d)))*scale), tt, 1e-12)
	assert.Equal(t, float64(2+d), df)

	tt, df = moderatedT(s, prior{s02: 0.04, d0: 0.5})
	assert.InDelta(t, (mn-mb)/(math.Sqrt((0.5*0.04+float64(d)*v)/(0.5+float64(d)))*scale), tt, 1e-12, "a prior worth less than a degree of freedom still counts")
	assert.Equal(t, 0.5+float64(d), df)
	tt, df = moderatedT(sample{base: []float64{1}, next: []float64{2}}, prior{s02: 0.04, d0: 0.5})
	assert.InDelta(t, 1/math.Sqrt(0.04*2), tt, 1e-12, "one run a side: the prior's variance alone")
	assert.Equal(t, 0.5, df)

	flat := sample{base: []float64{2, 2, 2}, next: []float64{2, 2, 2}}
	tt, df = moderatedT(flat, prior{})
	assert.Zero(t, tt)
	assert.Equal(t, 4.0, df)
	tt, _ = moderatedT(sample{base: []float64{2, 2, 2}, next: []float64{3, 3, 3}}, prior{})
	assert.True(t, math.IsInf(tt, 1))
	tt, _ = moderatedT(sample{base: []float64{2, 2, 2}, next: []float64{1, 1, 1}}, prior{})
	assert.True(t, math.IsInf(tt, -1))
	assert.Zero(t, twoSidedP(math.Inf(-1), 4))
	assert.Zero(t, twoSidedP(math.Inf(1), math.Inf(1)))
}

// TestBenjaminiHochbergAgainstItsDefinition: many p-values, ties among
// them, in no order: each q is the least p·n/rank over the p-values at
// least as large (a tie's rank its last), and at most 1.
func TestBenjaminiHochbergAgainstItsDefinition(t *testing.T) {
	var ps []float64
	for i := range 60 {
		ps = append(ps, float64((i*37)%23)/40+float64(i%3)*0.001)
	}
	ps[10], ps[20] = ps[30], ps[30]
	n := float64(len(ps))
	q := benjaminiHochberg(ps)
	for i, p := range ps {
		want := 1.0
		for _, pk := range ps {
			if pk >= p {
				rank := 0
				for _, pm := range ps {
					if pm <= pk {
						rank++
					}
				}
				want = min(want, pk*n/float64(rank))
			}
		}
		assert.InDelta(t, want, q[i], 1e-12, "p[%d] = %v", i, p)
	}
}
