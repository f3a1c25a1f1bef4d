package diff

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tracebeat/tracebeat/profile"
)

// TestSideInfo: a side's runs, builds (each once, sorted), time in traced
// code per run and its spread, median calls, the worst resolution and
// typical lateness of its runs.
func TestSideInfo(t *testing.T) {
	mk := func(source string, calls int64, builds []string, totals []float64, res, typ int64) *profile.Profile {
		p := &profile.Profile{Source: source, Calls: calls, Builds: builds, Tree: &profile.Node{}, Resolution: res, TypicalResolution: typ}
		for i, ms := range totals {
			p.Tree.Child(string(rune('a'+i)), true).Stat.Total = int64(ms * 1e6)
		}
		return p
	}
	in := info(Side{Label: "L", Runs: []*profile.Profile{
		mk("r1", 10, []string{"y", "x"}, []float64{1, 1}, 2e6, 0),
		mk("r2", 40, []string{"x"}, []float64{4}, 1e6, 5e5),
		mk("r3", 20, nil, []float64{3}, 0, 0),
		mk("r4", 30, []string{"z"}, nil, 0, 0),
	}})
	assert.Equal(t, "L", in.Label)
	assert.Equal(t, []string{"r1", "r2", "r3", "r4"}, in.Runs)
	assert.Equal(t, []string{"x", "y", "z"}, in.Builds)
	assert.Equal(t, []float64{2, 4, 3, 0}, in.TotalMs)
	assert.Equal(t, int64(25), in.Calls, "the mean of the middle two")
	assert.Equal(t, 2.0, in.ResolutionMs)
	assert.Equal(t, 2.0, in.TypicalMs, "a run without its typical lateness counts its worst")
	assert.Zero(t, in.Spread, "a run of no time: no spread")
	in = info(Side{Runs: []*profile.Profile{mk("a", 1, nil, []float64{2}, 0, 0), mk("b", 1, nil, []float64{3}, 0, 0)}})
	assert.Equal(t, 50.0, in.Spread)
	in = info(Side{Runs: []*profile.Profile{mk("a", 1, nil, []float64{2}, 0, 0)}})
	assert.Zero(t, in.Spread, "one run")
	in = info(Side{Runs: []*profile.Profile{{Source: "no tree"}}})
	assert.Equal(t, []float64{0}, in.TotalMs)

	assert.Equal(t, int64(7), lateBound(&profile.Profile{Resolution: 9, TypicalResolution: 8, LateResolution: 7}))
	assert.Equal(t, int64(8), lateBound(&profile.Profile{Resolution: 9, TypicalResolution: 8}))
	assert.Equal(t, int64(9), lateBound(&profile.Profile{Resolution: 9}))
}

// TestTooFewNote names the runs a side had.
func TestTooFewNote(t *testing.T) {
	assert.Contains(t, tooFewNote(1), "a side with a single run shows no noise: no method")
	assert.Contains(t, tooFewNote(2), "a side with 2 runs shows too little of its noise (3 a side at least): no method")
}

// TestSmallStatistics: medians, spreads, means and variances at their
// edges; the floor of measurable time.
func TestSmallStatistics(t *testing.T) {
	assert.Zero(t, median(nil))
	assert.Equal(t, 2.0, median([]float64{3, 1, 2}))
	assert.Equal(t, 2.5, median([]float64{4, 1, 3, 2}))
	assert.Equal(t, 0.001, median([]float64{0.0004, 0.0012}), "rounded to a microsecond")
	assert.Equal(t, [2]float64{}, spread(nil))
	assert.Equal(t, [2]float64{1, 4}, spread([]float64{3, 1, 4}))
	assert.Equal(t, 2.5, medianOf([]float64{4, 1, 3, 2}))
	assert.Equal(t, 3.0, medianOf([]float64{4, 1, 3}))
	m, v := meanVar([]float64{5})
	assert.Equal(t, 5.0, m)
	assert.Zero(t, v)
	m, v = meanVar([]float64{1, 2, 3, 6})
	assert.Equal(t, 3.0, m)
	assert.InDelta(t, 14.0/3, v, 1e-12)
	pv, df := sample{base: []float64{1}, next: []float64{2}}.pooled()
	assert.Zero(t, pv)
	assert.Zero(t, df)
	pv, df = sample{base: []float64{1, 3}, next: []float64{2, 2, 5}}.pooled()
	assert.Equal(t, 3, df)
	assert.InDelta(t, (2.0+6.0)/3, pv, 1e-12)
	assert.True(t, atFloor([]float64{0, math.Log(logFloorMs)}))
	assert.True(t, atFloor([]float64{0, math.Log(logFloorMs) - 1}))
	assert.False(t, atFloor([]float64{math.Log(logFloorMs) + 1e-9}))
	assert.False(t, atFloor(nil))
	assert.True(t, math.IsNaN(normalizeRuns(nil)))
	assert.Equal(t, []float64{math.Log(logFloorMs), math.Log(2)}, logTimes([]float64{0.001, 2}))
	assert.Equal(t, 1.24, round2(1.235))
	assert.Equal(t, -1.24, round2(-1.235))
	assert.Equal(t, []float64{0.1235, -0.1235, 0.0001, 0, 0.5}, []float64{round4(0.12345), round4(-0.12345), round4(0.00005), round4(0.00004), round4(0.5)})
	assert.Equal(t, 3.0, median([]float64{5, 1, 3, 4, 2}))
}

// TestSpecialFunctionsAtTheirEnds: the inverse of the trigamma function against the
// function itself, and its ends; the incomplete beta function at its ends
// and against values it has in closed form.
func TestSpecialFunctionsAtTheirEnds(t *testing.T) {
	for _, y := range []float64{1e-5, 0.01, 0.5, 1, 10, 1000, 1e6} {
		x := trigammaInverse(y)
		assert.InDelta(t, 1, trigamma(x)/y, 1e-6, "y=%g", y)
	}
	assert.Equal(t, 1/math.Sqrt(4e8), trigammaInverse(4e8))
	assert.Equal(t, 1/1e-7, trigammaInverse(1e-7))
	assert.Zero(t, regIncBeta(2, 3, 0))
	assert.Zero(t, regIncBeta(2, 3, -1))
	assert.Equal(t, 1.0, regIncBeta(2, 3, 1))
	assert.Equal(t, 1.0, regIncBeta(2, 3, 2))
	assert.Equal(t, 1.0, regIncBeta(2, 3, 1.5))
	for _, x := range []float64{0.05, 0.3, 0.5, 0.7, 0.95} {
		assert.InDelta(t, x, regIncBeta(1, 1, x), 1e-10, "I_x(1,1) = x")
		assert.InDelta(t, 1-math.Pow(1-x, 3), regIncBeta(1, 3, x), 1e-10, "I_x(1,3)")
		assert.InDelta(t, math.Pow(x, 4), regIncBeta(4, 1, x), 1e-10, "I_x(4,1)")
		assert.InDelta(t, 3*x*x-2*x*x*x, regIncBeta(2, 2, x), 1e-10, "I_x(2,2)")
	}
}

// TestAddCallers calls addCallers directly: a renamed method's callers
// found under BASE's name; callers of equal change in name order, three
// at most; calls that moved by no more than a tenth, or a verdict of the
// same, list none; a caller whose calls did not change is not listed.
func TestAddCallers(t *testing.T) {
	tree := func(paths map[string]int64) *profile.Profile {
		p := &profile.Profile{Tree: &profile.Node{}}
		for path, calls := range paths {
			n := p.Tree
			for _, name := range splitPath(path) {
				n = n.Child(name, true)
			}
			n.Stat.Calls = calls
		}
		return p
	}
	base := []*profile.Profile{tree(map[string]int64{"a": 1, "a/x(I)": 10, "b": 1, "b/x(I)": 10, "c": 1, "c/x(I)": 10, "d": 1, "d/x(I)": 10, "e": 1, "e/x(I)": 5, "s": 1, "s/y": 10, "s/z": 10})}
	next := []*profile.Profile{tree(map[string]int64{"a": 1, "a/x(J)": 20, "b": 1, "b/x(J)": 20, "c": 1, "c/x(J)": 20, "d": 1, "d/x(J)": 20, "e": 1, "e/x(J)": 5, "s": 1, "s/y": 11, "s/z": 20})}
	ms := []Method{
		{Name: "x(J)", BaseName: "x(I)", Status: Regressed, CallsBase: 45, CallsNew: 85},
		{Name: "y", Status: Regressed, CallsBase: 10, CallsNew: 11},
		{Name: "z", Status: Same, CallsBase: 10, CallsNew: 20},
	}
	addCallers(ms, base, next)
	assert.Equal(t, []Caller{{"a", 10, 20}, {"b", 10, 20}, {"c", 10, 20}}, ms[0].Callers)
	assert.Empty(t, ms[1].Callers, "a tenth more calls")
	assert.Empty(t, ms[2].Callers, "the same")
	none := []Method{{Name: "y", Status: Improved, CallsBase: 10, CallsNew: 10}}
	addCallers(none, base, next)
	assert.Empty(t, none[0].Callers)
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := range len(p) {
		if p[i] == '/' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return append(out, p[start:])
}
