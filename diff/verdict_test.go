package diff

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/profile"
)

// byName indexes a result's methods.
func byName(res *Result) map[string]Method {
	out := map[string]Method{}
	for _, m := range res.Methods {
		out[m.Name] = m
	}
	return out
}

// tight is a side of three runs of each method at its time, apart by
// a hundredth of it up and down (self and total alike).
func tight(ms map[string]float64) Side {
	var runs []map[string][2]float64
	for _, k := range []float64{1, 1.01, 0.99} {
		r := map[string][2]float64{}
		for name, v := range ms {
			r[name] = [2]float64{v * k, v * k}
		}
		runs = append(runs, r)
	}
	return side(runs...)
}

// TestThresholdsAtTheirEdges: the default threshold is 10% (10.5% is
// more, the 10.05% of 20 to 22.01 ms too), a move of exactly the least
// milliseconds is not more than it, and a move under a millisecond counts
// when the least is set under it: a regression, not an improvement.
func TestThresholdsAtTheirEdges(t *testing.T) {
	strict := Options{Strict: true}
	for _, tc := range []struct {
		name     string
		from, to float64
		opt      Options
		want     string
	}{
		{"10.5%", 20, 22.1, strict, Regressed},
		{"10.05%", 20, 22.01, strict, Regressed},
		{"exactly 1 ms", 5, 6, strict, Same},
		{"0.5 ms over a least of 0.1", 2, 2.5, Options{Strict: true, MinMs: 0.1}, Regressed},
		{"0.5 ms less over a least of 0.1", 2.5, 2, Options{Strict: true, MinMs: 0.1}, Improved},
	} {
		res := Compare(one(map[string][2]float64{"a": {tc.from, tc.from}}), one(map[string][2]float64{"a": {tc.to, tc.to}}), tc.opt)
		assert.Equal(t, tc.want, res.Methods[0].Status, tc.name)
	}
}

// TestNotesOfTheSides: ids of another build's map are named in a note;
// a side of fewer runs than MinRuns, whatever the other has, means no
// statistics (and no q); with enough runs a side there is no such note.
func TestNotesOfTheSides(t *testing.T) {
	res := Compare(one(map[string][2]float64{"<unknown id 7>": {1, 1}, "a": {1, 1}}), one(map[string][2]float64{"a": {1, 1}}), Options{})
	assert.Contains(t, res.Notes, "side: ids not in its map are left out of the comparison (the map of another build?)")
	assert.Len(t, res.Methods, 1)

	three := tight(map[string]float64{"a": 10})
	for name, sides := range map[string][2]Side{
		"BASE of three, NEW of one": {three, one(map[string][2]float64{"a": {10, 10}})},
		"BASE of one, NEW of three": {one(map[string][2]float64{"a": {10, 10}}), three},
	} {
		res := Compare(sides[0], sides[1], Options{})
		assert.False(t, res.Statistics, name)
		assert.Nil(t, res.Methods[0].Q, name)
		assert.Contains(t, res.Notes, tooFewNote(1), name)
	}
	res = Compare(three, three, Options{})
	assert.True(t, res.Statistics)
	require.NotNil(t, res.Methods[0].Q)
	assert.NotContains(t, res.Notes, tooFewNote(3))
	assert.Empty(t, res.Notes)
}

// TestRiskIsAtMost: a method whose q is the risk itself is significant
// (the risk is the most a q may be).
func TestRiskIsAtMost(t *testing.T) {
	base := side(map[string][2]float64{"a": {10, 10}}, map[string][2]float64{"a": {10.6, 10.6}}, map[string][2]float64{"a": {9.5, 9.5}})
	next := side(map[string][2]float64{"a": {12, 12}}, map[string][2]float64{"a": {12.7, 12.7}}, map[string][2]float64{"a": {11.6, 11.6}})
	res := Compare(base, next, Options{Risk: 0.5})
	require.Equal(t, Regressed, res.Methods[0].Status)
	q := *res.Methods[0].Q
	require.Greater(t, q, 0.0001, "a q that rounds to more than 0")
	res = Compare(base, next, Options{Risk: q})
	assert.Equal(t, Regressed, res.Methods[0].Status, "q %v at a risk of %v", q, q)
	res = Compare(base, next, Options{Risk: q / 2})
	assert.Equal(t, WithinNoise, res.Methods[0].Reason)
}

// TestByTotalDecidesOnTotals: with ByTotal the statistics and the clock's
// allowance are the total times': a method whose own time stayed and
// whose total grew regressed; the allowance counts its late calls, not
// those of the calls it made.
func TestByTotalDecidesOnTotals(t *testing.T) {
	mk := func(total float64) Side {
		var runs []map[string][2]float64
		for _, k := range []float64{1, 1.01, 0.99} {
			runs = append(runs, map[string][2]float64{"a": {5, total * k}})
		}
		return side(runs...)
	}
	res := Compare(mk(20), mk(30), Options{ByTotal: true})
	assert.Equal(t, Regressed, res.Methods[0].Status)
	res = Compare(mk(20), mk(30), Options{})
	assert.Equal(t, WithinThreshold, res.Methods[0].Reason)

	late := func(s Side) Side {
		for _, p := range s.Runs {
			p.Resolution, p.TypicalResolution = 5e6, 1e6
			st := p.Methods["a"]
			st.ChildCalls, st.LateCalls, st.LateChildCalls = 1, 1, 1
			p.Methods["a"] = st
		}
		return s
	}
	assert.Equal(t, 1.0, byName(Compare(late(mk(20)), late(mk(30)), Options{ByTotal: true}))["a"].ClockMs)
	assert.Equal(t, 2.0, byName(Compare(late(mk(20)), late(mk(30)), Options{}))["a"].ClockMs)
}

// TestWithinClockAtItsBound: a move of exactly the clock's allowance is
// within it.
func TestWithinClockAtItsBound(t *testing.T) {
	mk := func(self float64) Side {
		s := tight(map[string]float64{"a": self})
		for _, p := range s.Runs {
			p.Resolution, p.TypicalResolution = 5e6, 1e6
			st := p.Methods["a"]
			st.Self = int64(self * 1e6) // the same each run: the medians differ by 2 ms exactly
			st.ChildCalls, st.LateCalls, st.LateChildCalls = 1, 1, 1
			p.Methods["a"] = st
		}
		return s
	}
	m := byName(Compare(mk(10), mk(12), Options{Strict: true}))["a"]
	assert.Equal(t, 2.0, m.ClockMs)
	assert.Equal(t, 2.0, m.SelfMsDelta)
	assert.Equal(t, WithinClock, m.Reason)
}

// TestMethodsInOneBuild: a method new or gone has no clock allowance; a
// new one no percent (nothing to divide by), a gone one -100%; a method
// of less than a millisecond has its percent; the totals' deltas.
func TestMethodsInOneBuild(t *testing.T) {
	base, next := one(map[string][2]float64{"gone": {3, 3}, "small": {0.5, 0.5}}), one(map[string][2]float64{"new": {4, 4}, "small": {1, 1}})
	for _, s := range []Side{base, next} {
		s.Runs[0].Resolution = 5e6
		for name, st := range s.Runs[0].Methods {
			st.LateCalls = 1
			s.Runs[0].Methods[name] = st
		}
	}
	ms := byName(Compare(base, next, Options{Strict: true}))
	for _, name := range []string{"gone", "new"} {
		assert.Zero(t, ms[name].ClockMs, name)
	}
	assert.Zero(t, ms["new"].DeltaPercent)
	assert.Equal(t, -100.0, ms["gone"].DeltaPercent)
	assert.Equal(t, 100.0, ms["small"].DeltaPercent)
	assert.Equal(t, [3]float64{4, -3, 0.5}, [3]float64{ms["new"].TotalMsDelta, ms["gone"].TotalMsDelta, ms["small"].TotalMsDelta})
}

// TestOrderOfTheSame: the same come after every change, even one whose
// time moved more than a change's; changes of equal size in name order.
func TestOrderOfTheSame(t *testing.T) {
	res := Compare(one(map[string][2]float64{"same": {100, 100}, "faster": {10, 10}, "b": {10, 10}, "a": {10, 10}}),
		one(map[string][2]float64{"same": {105, 105}, "faster": {7, 7}, "b": {15, 15}, "a": {15, 15}}), Options{Strict: true})
	var order []string
	for _, m := range res.Methods {
		order = append(order, m.Name)
	}
	assert.Equal(t, []string{"a", "b", "faster", "same"}, order)
	// A new method (listed before the methods of both builds) that moved
	// more comes before an improvement whose name sorts first.
	res = Compare(one(map[string][2]float64{"a": {10, 10}}), one(map[string][2]float64{"a": {5, 5}, "b": {6, 6}}), Options{Strict: true})
	assert.Equal(t, "b", res.Methods[0].Name)
	assert.Equal(t, "a", res.Methods[1].Name)
}

// TestSignaturePairsOfShortNamesAndOverloads: a one-letter method is
// paired too; a NEW method whose stem has two gone overloads is not.
func TestSignaturePairsOfShortNamesAndOverloads(t *testing.T) {
	assert.Equal(t, map[string]string{"m(J)V": "m(I)V"}, signaturePairs(map[string]bool{"m(I)V": true}, map[string]bool{"m(J)V": true}))
	assert.Empty(t, signaturePairs(map[string]bool{"p.C.k(I)V": true, "p.C.k(J)V": true}, map[string]bool{"p.C.k(F)V": true}))
	assert.Empty(t, signaturePairs(map[string]bool{"p.C.k(I)V": true}, map[string]bool{"p.C.k(F)V": true, "p.C.k(D)V": true}))
}

// TestSideInfoAtItsEdges: runs under a millisecond have their spread; a
// typical lateness of 1 ns is one; a late bound of 1 ns is one.
func TestSideInfoAtItsEdges(t *testing.T) {
	mk := func(totalNs int64) *profile.Profile {
		p := &profile.Profile{Tree: &profile.Node{}, Resolution: 9, TypicalResolution: 1}
		p.Tree.Child("a", true).Stat.Total = totalNs
		return p
	}
	in := info(Side{Runs: []*profile.Profile{mk(500_000), mk(1_000_000)}})
	assert.Equal(t, 100.0, in.Spread)
	assert.Equal(t, 1e-6, in.TypicalMs)
	assert.Equal(t, int64(1), lateBound(&profile.Profile{Resolution: 9, TypicalResolution: 8, LateResolution: 1}))
}

// TestCallersAtATenth: a method whose calls moved by exactly a tenth of
// the larger count lists no callers.
func TestCallersAtATenth(t *testing.T) {
	tree := func(calls int64) []*profile.Profile {
		p := &profile.Profile{Tree: &profile.Node{}}
		p.Tree.Child("s", true).Child("y", true).Stat.Calls = calls
		return []*profile.Profile{p}
	}
	ms := []Method{{Name: "y", Status: Regressed, CallsBase: 90, CallsNew: 100}}
	addCallers(ms, tree(90), tree(100))
	assert.Empty(t, ms[0].Callers)
	ms = []Method{{Name: "y", Status: Regressed, CallsBase: 89, CallsNew: 100}}
	addCallers(ms, tree(89), tree(100))
	assert.Equal(t, []Caller{{"s", 89, 100}}, ms[0].Callers)
}
