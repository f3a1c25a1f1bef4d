// Package diff compares two builds' traces: each side is one or more
// profiles (package profile) of the same build, methods are matched by
// name, and each gets a verdict from the change of its self time (or its
// total time): what `tracebeat diff` prints and gates a CI step on.
package diff

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/tracebeat/tracebeat/profile"
)

// Statuses of a method.
const (
	Regressed = "regressed"
	Improved  = "improved"
	Same      = "same"
	New       = "new"  // only NEW calls it
	Gone      = "gone" // only BASE calls it
)

// Options set the verdicts.
type Options struct {
	// Threshold is the change, in percent of BASE's time, that a method's
	// time must exceed to be regressed or improved (default 10).
	Threshold float64
	// MinMs is the change in milliseconds it must exceed too (default 1),
	// so that a method of microseconds does not fail a build by 10%.
	MinMs float64
	// ByTotal decides by total (inclusive) time instead of self time.
	ByTotal bool
	// Only, when set, compares the methods whose names it matches alone.
	Only *regexp.Regexp
}

// Side is one build: its runs' profiles.
type Side struct {
	Label string
	Runs  []*profile.Profile
}

// Method is one method compared: medians over each side's runs, with the
// least and the most of any run, times in milliseconds.
type Method struct {
	Name   string `json:"name"`
	Status string `json:"status"`

	CallsBase int64 `json:"calls_base"`
	CallsNew  int64 `json:"calls_new"`

	SelfMsBase  float64 `json:"self_ms_base"`
	SelfMsNew   float64 `json:"self_ms_new"`
	SelfMsDelta float64 `json:"self_ms_delta"`

	TotalMsBase  float64 `json:"total_ms_base"`
	TotalMsNew   float64 `json:"total_ms_new"`
	TotalMsDelta float64 `json:"total_ms_delta"`

	// The least and most of the runs, the spread that noise makes.
	SelfMsBaseRange  [2]float64 `json:"self_ms_base_range"`
	SelfMsNewRange   [2]float64 `json:"self_ms_new_range"`
	TotalMsBaseRange [2]float64 `json:"total_ms_base_range"`
	TotalMsNewRange  [2]float64 `json:"total_ms_new_range"`

	// DeltaPercent is the deciding time's change in percent of BASE's (0
	// when BASE's is 0).
	DeltaPercent float64 `json:"delta_percent"`
}

// Result is a comparison.
type Result struct {
	Base, New SideInfo
	Options   Options
	Methods   []Method // the largest change of the deciding time first
	Counts    map[string]int
	Notes     []string
}

// SideInfo describes a side.
type SideInfo struct {
	Label  string   `json:"label"`
	Runs   []string `json:"runs"`
	Calls  int64    `json:"calls"` // median over the runs
	Builds []string `json:"builds,omitempty"`
}

// Regressed reports whether a method regressed: the gate fails.
func (r *Result) Regressed() bool { return r.Counts[Regressed] > 0 }

// Compare compares two builds.
func Compare(base, next Side, opt Options) *Result {
	if opt.Threshold == 0 {
		opt.Threshold = 10
	}
	if opt.MinMs == 0 {
		opt.MinMs = 1
	}
	res := &Result{Base: info(base), New: info(next), Options: opt, Counts: map[string]int{}}
	names := map[string]bool{}
	unknown := [2]int{}
	for i, side := range []Side{base, next} {
		for _, p := range side.Runs {
			for name := range p.Methods {
				if strings.HasPrefix(name, "<unknown id ") {
					unknown[i]++ // an id's number means nothing across builds
					continue
				}
				if opt.Only == nil || opt.Only.MatchString(name) {
					names[name] = true
				}
			}
		}
	}
	for i, n := range unknown {
		if n > 0 {
			label := []string{base.Label, next.Label}[i]
			res.Notes = append(res.Notes, label+": ids not in its map are left out of the comparison (the map of another build?)")
		}
	}
	for name := range names {
		m := compareMethod(name, base.Runs, next.Runs, opt)
		res.Methods = append(res.Methods, m)
		res.Counts[m.Status]++
	}
	slices.SortFunc(res.Methods, func(a, b Method) int {
		if c := cmp.Compare(order(a), order(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(abs(deciding(b, opt)), abs(deciding(a, opt))); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return res
}

// order puts the regressed first, then the other changes, then the same.
func order(m Method) int {
	switch m.Status {
	case Regressed:
		return 0
	case Same:
		return 2
	}
	return 1
}

// deciding is the change the verdict was made on (a new or gone method's
// whole time).
func deciding(m Method, opt Options) float64 {
	if opt.ByTotal {
		return m.TotalMsDelta
	}
	return m.SelfMsDelta
}

func abs(x float64) float64 { return max(x, -x) }

func info(s Side) SideInfo {
	in := SideInfo{Label: s.Label}
	calls := make([]float64, len(s.Runs))
	seen := map[string]bool{}
	for i, p := range s.Runs {
		in.Runs = append(in.Runs, p.Source)
		calls[i] = float64(p.Calls)
		for _, b := range p.Builds {
			if !seen[b] {
				seen[b] = true
				in.Builds = append(in.Builds, b)
			}
		}
	}
	slices.Sort(in.Builds)
	in.Calls = int64(median(calls))
	return in
}

func compareMethod(name string, base, next []*profile.Profile, opt Options) Method {
	m := Method{Name: name}
	var baseCalls, nextCalls, baseSelf, nextSelf, baseTotal, nextTotal []float64
	for _, p := range base {
		s := p.Methods[name]
		baseCalls, baseSelf, baseTotal = append(baseCalls, float64(s.Calls)), append(baseSelf, ms(s.Self)), append(baseTotal, ms(s.Total))
	}
	for _, p := range next {
		s := p.Methods[name]
		nextCalls, nextSelf, nextTotal = append(nextCalls, float64(s.Calls)), append(nextSelf, ms(s.Self)), append(nextTotal, ms(s.Total))
	}
	m.CallsBase, m.CallsNew = int64(median(baseCalls)), int64(median(nextCalls))
	m.SelfMsBase, m.SelfMsNew = median(baseSelf), median(nextSelf)
	m.TotalMsBase, m.TotalMsNew = median(baseTotal), median(nextTotal)
	m.SelfMsDelta, m.TotalMsDelta = round3(m.SelfMsNew-m.SelfMsBase), round3(m.TotalMsNew-m.TotalMsBase)
	m.SelfMsBaseRange, m.SelfMsNewRange = spread(baseSelf), spread(nextSelf)
	m.TotalMsBaseRange, m.TotalMsNewRange = spread(baseTotal), spread(nextTotal)
	inBase, inNew := slices.Max(baseCalls) > 0, slices.Max(nextCalls) > 0
	baseT, newT, baseR, newR := m.SelfMsBase, m.SelfMsNew, m.SelfMsBaseRange, m.SelfMsNewRange
	if opt.ByTotal {
		baseT, newT, baseR, newR = m.TotalMsBase, m.TotalMsNew, m.TotalMsBaseRange, m.TotalMsNewRange
	}
	if baseT > 0 {
		m.DeltaPercent = round2((newT - baseT) / baseT * 100)
	}
	// With several runs a side, a change must also stand out of the noise:
	// the runs' ranges apart, and the change larger than either range.
	repeated := len(base) >= 2 && len(next) >= 2
	noise := max(baseR[1]-baseR[0], newR[1]-newR[0])
	switch {
	case !inBase:
		m.Status = New
	case !inNew:
		m.Status = Gone
	case changed(newT-baseT, baseT, opt) && (!repeated || newR[0] > baseR[1] && newT-baseT > noise):
		m.Status = Regressed
	case changed(baseT-newT, baseT, opt) && (!repeated || newR[1] < baseR[0] && baseT-newT > noise):
		m.Status = Improved
	default:
		m.Status = Same
	}
	return m
}

// changed reports whether a growth of d ms over base ms passes both
// thresholds.
func changed(d, base float64, opt Options) bool {
	return d > opt.MinMs && d > base*opt.Threshold/100
}

func ms(ns int64) float64 { return round3(float64(ns) / 1e6) }

func round3(x float64) float64 { return float64(int64(x*1000+copysign(0.5, x))) / 1000 }
func round2(x float64) float64 { return float64(int64(x*100+copysign(0.5, x))) / 100 }

func copysign(v, sign float64) float64 {
	if sign < 0 {
		return -v
	}
	return v
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return round3((s[len(s)/2-1] + s[len(s)/2]) / 2)
}

func spread(v []float64) [2]float64 {
	if len(v) == 0 {
		return [2]float64{}
	}
	return [2]float64{slices.Min(v), slices.Max(v)}
}
