package diff

import (
	"math"
	"slices"
)

// The statistics behind a verdict. Each method's time in each run is
// taken on a log scale (noise in run times multiplies: a JIT that is late
// makes a run 30% slower, not 3 ms), and the two sides' means are compared
// with a moderated t-test (Smyth 2004, the one in limma): with three runs
// a side, one method's own spread says little of its noise, so it is
// shrunk towards the spread of all the methods compared, weighted by how
// much the methods' spreads agree. The p-values of all the methods are
// then corrected together (Benjamini-Hochberg), so that the risk stated is
// the comparison's, not each method's: with hundreds of methods, a
// per-method 5% would flag several by chance in every run.

// minMethodsToNormalize is the least number of methods, each in every
// run, from which a run's overall speed is taken.
const minMethodsToNormalize = 30

// normalizeRuns takes each run's overall speed out of its methods' times:
// a loaded machine, a JIT that settles later, a garbage collection make a
// whole run slower, and that says nothing of any one method. A run's
// offset is the median, over the methods in every run, of how far its time
// is from the method's mean over all runs (a few methods that changed move
// the median little); it is taken from each time of the run. It returns
// how much slower NEW's runs were as a whole (a factor less 1), or NaN
// when fewer than minMethodsToNormalize methods are in every run (then
// nothing is changed).
func normalizeRuns(samples []sample) float64 {
	if len(samples) == 0 {
		return math.NaN()
	}
	nb, nn := len(samples[0].base), len(samples[0].next)
	var full []sample
	for _, s := range samples {
		if len(s.base) == nb && len(s.next) == nn && !atFloor(s.base) && !atFloor(s.next) {
			full = append(full, s)
		}
	}
	if len(full) < minMethodsToNormalize {
		return math.NaN()
	}
	offsets := make([]float64, nb+nn)
	dev := make([]float64, len(full))
	for r := range offsets {
		for i, s := range full {
			mean := (sum(s.base) + sum(s.next)) / float64(nb+nn)
			dev[i] = at(s, r) - mean
		}
		offsets[r] = medianOf(dev)
	}
	for _, s := range samples {
		for r := range s.base {
			s.base[r] -= offsets[r]
		}
		for r := range s.next {
			s.next[r] -= offsets[nb+r]
		}
	}
	return math.Exp(sum(offsets[nb:])/float64(nn)-sum(offsets[:nb])/float64(nb)) - 1
}

func at(s sample, r int) float64 {
	if r < len(s.base) {
		return s.base[r]
	}
	return s.next[r-len(s.base)]
}

// atFloor reports whether a run of the method took no measurable time.
func atFloor(xs []float64) bool {
	for _, x := range xs {
		if x <= math.Log(logFloorMs) {
			return true
		}
	}
	return false
}

func sum(xs []float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t
}

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// logFloorMs is the least time taken on the log scale: below it, a
// method's time is mostly the clock's.
const logFloorMs = 0.01

// sample is one method's deciding times, one a run, on the log scale.
type sample struct {
	base, next []float64
}

func logTimes(ms []float64) []float64 {
	out := make([]float64, len(ms))
	for i, v := range ms {
		out[i] = math.Log(max(v, logFloorMs))
	}
	return out
}

func meanVar(xs []float64) (mean, variance float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(xs)-1)
}

// pooled is a sample's pooled variance and its degrees of freedom.
func (s sample) pooled() (v float64, df int) {
	_, vb := meanVar(s.base)
	_, vn := meanVar(s.next)
	df = len(s.base) + len(s.next) - 2
	if df <= 0 {
		return 0, 0
	}
	return (vb*float64(len(s.base)-1) + vn*float64(len(s.next)-1)) / float64(df), df
}

// prior is what the methods' variances say together: a variance s0² and
// how many degrees of freedom it is worth (d0; +Inf when the methods'
// variances differ no more than chance makes them).
type prior struct {
	s02 float64
	d0  float64
}

// fitPrior fits the scaled F distribution the methods' variances follow
// (Smyth's method of moments on their logs). Variances of 0 (a method at
// the floor in every run) say nothing and are left out.
func fitPrior(vars []float64, df int) prior {
	var es []float64
	d := float64(df)
	for _, v := range vars {
		if v > 0 {
			es = append(es, math.Log(v)-digamma(d/2)+math.Log(d/2))
		}
	}
	if len(es) < 2 {
		if len(es) == 1 {
			return prior{s02: math.Exp(es[0] + digamma(d/2) - math.Log(d/2)), d0: d}
		}
		return prior{}
	}
	mean, evar := meanVar(es)
	evar -= trigamma(d / 2)
	if evar <= 0 {
		return prior{s02: math.Exp(mean), d0: math.Inf(1)}
	}
	d0 := 2 * trigammaInverse(evar)
	return prior{s02: math.Exp(mean + digamma(d0/2) - math.Log(d0/2)), d0: d0}
}

// moderatedT is the moderated t statistic of NEW against BASE and its
// degrees of freedom.
func moderatedT(s sample, p prior) (t, df float64) {
	mb, _ := meanVar(s.base)
	mn, _ := meanVar(s.next)
	v, d := s.pooled()
	var post float64
	switch {
	case math.IsInf(p.d0, 1):
		post, df = p.s02, math.Inf(1)
	case p.d0 > 0:
		post, df = (p.d0*p.s02+float64(d)*v)/(p.d0+float64(d)), p.d0+float64(d)
	default:
		post, df = v, float64(d)
	}
	se := math.Sqrt(post * (1/float64(len(s.base)) + 1/float64(len(s.next))))
	if se == 0 || df <= 0 {
		if mn == mb {
			return 0, df
		}
		return math.Copysign(math.Inf(1), mn-mb), df
	}
	return (mn - mb) / se, df
}

// twoSidedP is the chance of a |t| at least this large with df degrees of
// freedom (the normal's for infinite df).
func twoSidedP(t, df float64) float64 {
	if math.IsInf(t, 0) {
		return 0
	}
	if math.IsInf(df, 1) {
		return math.Erfc(math.Abs(t) / math.Sqrt2)
	}
	x := df / (df + t*t)
	return regIncBeta(df/2, 0.5, x)
}

// benjaminiHochberg gives each p-value its adjusted value (q): a method is
// significant at risk a when its q is at most a, and then the expected
// share of false alarms among the flagged is at most a (and, when nothing
// changed, the chance of any flag at all).
func benjaminiHochberg(ps []float64) []float64 {
	n := len(ps)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return a - b
	})
	q := make([]float64, n)
	low := 1.0
	for r := n - 1; r >= 0; r-- {
		i := idx[r]
		low = min(low, ps[i]*float64(n)/float64(r+1))
		q[i] = low
	}
	return q
}

// digamma is ψ(x), x > 0: the recurrence up to 6, then its asymptotic
// series.
func digamma(x float64) float64 {
	var r float64
	for x < 6 {
		r -= 1 / x
		x++
	}
	f := 1 / (x * x)
	return r + math.Log(x) - 0.5/x - f*(1.0/12-f*(1.0/120-f*(1.0/252-f*(1.0/240-f/132))))
}

// trigamma is ψ'(x), x > 0.
func trigamma(x float64) float64 {
	var r float64
	for x < 6 {
		r += 1 / (x * x)
		x++
	}
	f := 1 / (x * x)
	return r + 1/x + f/2 + f/x*(1.0/6-f*(1.0/30-f*(1.0/42-f/30)))
}

// tetragamma is ψ”(x), x > 0.
func tetragamma(x float64) float64 {
	var r float64
	for x < 6 {
		r -= 2 / (x * x * x)
		x++
	}
	f := 1 / (x * x)
	return r - f - f/x - f*f*(0.5-f*(1.0/6-f*(1.0/6-f*(3.0/10-f*5.0/6))))
}

// trigammaInverse solves ψ'(x) = y for x, by Newton's method on 1/ψ'
// (Smyth's, which converges from its first guess).
func trigammaInverse(y float64) float64 {
	switch {
	case y > 1e7:
		return 1 / math.Sqrt(y)
	case y < 1e-6:
		return 1 / y
	}
	x := 0.5 + 1/y
	for range 50 {
		tri := trigamma(x)
		dif := tri * (1 - tri/y) / tetragamma(x)
		x += dif
		if -dif/x < 1e-8 {
			break
		}
	}
	return x
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by
// its continued fraction (Lentz's method).
func regIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	lbeta := lgamma(a+b) - lgamma(a) - lgamma(b)
	front := math.Exp(math.Log(x)*a + math.Log(1-x)*b + lbeta)
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaFraction(b, a, 1-x)/b
	}
	return front * betaFraction(a, b, x) / a
}

func betaFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		d = 1 + num*d
		c = 1 + num/c
		d, c = 1/guard(d, tiny), guard(c, tiny)
		h *= d * c
		num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		d = 1 + num*d
		c = 1 + num/c
		d, c = 1/guard(d, tiny), guard(c, tiny)
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < 1e-14 {
			break
		}
	}
	return h
}

func guard(v, tiny float64) float64 {
	if math.Abs(v) < tiny {
		return tiny
	}
	return v
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}
