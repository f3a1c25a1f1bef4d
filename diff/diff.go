// Package diff compares two builds' traces: each side is one or more
// profiles (package profile) of the same build, methods are matched by
// name, and each gets a verdict from the change of its self time (or its
// total time): what `tracebeat diff` prints and gates a CI step on.
package diff

import (
	"cmp"
	"fmt"
	"maps"
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

// Why a method that both builds call is the same.
const (
	WithinThreshold = "threshold" // moved by no more than the thresholds
	WithinClock     = "clock"     // by no more than the clock's resolution may account for
	WithinNoise     = "noise"     // not more than the runs' spread can make (statistics)
	TooFewRuns      = "runs"      // a side has too few runs to tell
)

// MinRuns is the least number of runs a side needs for a verdict from
// statistics. Two are too few: on a loaded machine a method's time in a
// JVM run can take one of two levels (what the JIT made of it, a pause
// that hit it), and two runs of one side at the same level look like a
// change of build (docs/diff.md: with two runs a side allowed, one of
// the 100 splits of jsoup's runs on a loaded machine failed the gate; none
// of the 40 with three a side or more).
const MinRuns = 3

// DefaultRisk is the comparison's risk of a false verdict unless told.
const DefaultRisk = 0.01

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
	// Only, when set, gives verdicts to the methods whose names it matches
	// alone (the noise is learnt from all of them).
	Only *regexp.Regexp
	// Risk is the chance, for the whole comparison, that a method is
	// called regressed or improved when the builds are the same (default
	// DefaultRisk).
	Risk float64
	// Strict decides with fewer than MinRuns runs a side, by the
	// thresholds and the clock alone.
	Strict bool

	// unguarded leaves sizeNoise's guard out: the tests' measure of what
	// it prevents.
	unguarded bool
}

// Side is one build: its runs' profiles.
type Side struct {
	Label string
	Runs  []*profile.Profile
}

// Method is one method compared: medians over each side's runs, with the
// least and the most of any run, times in milliseconds.
type Method struct {
	Name string `json:"name"`
	// BaseName is BASE's name of a method whose descriptor changed (the
	// same class and method name, the only one of each build).
	BaseName string `json:"base_name,omitempty"`
	Status   string `json:"status"`
	// Reason says why a method both builds call is the same.
	Reason string `json:"reason,omitempty"`

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
	// ClockMs is how far the clock's resolution may move the deciding
	// time: the records' typical lateness times the records involved.
	ClockMs float64 `json:"clock_ms"`
	// Q is the method's p-value adjusted for all the methods compared
	// (with statistics only).
	Q *float64 `json:"q,omitempty"`
	// Callers are, for a regressed or improved method whose calls
	// changed, the callers whose calls into it changed most (callers.go).
	Callers []Caller `json:"callers,omitempty"`
}

// Result is a comparison.
type Result struct {
	Base, New SideInfo
	Options   Options
	Methods   []Method // the regressed first, then the other changes, the largest first
	Counts    map[string]int
	Notes     []string
	// Compared is how many methods both builds call.
	Compared int
	// Statistics: both sides had MinRuns runs or more.
	Statistics bool
}

// SideInfo describes a side.
type SideInfo struct {
	Label  string   `json:"label"`
	Runs   []string `json:"runs"`
	Calls  int64    `json:"calls"` // median over the runs
	Builds []string `json:"builds,omitempty"`
	// TotalMs is each run's time in traced code (its threads' top calls).
	TotalMs []float64 `json:"total_ms"`
	// Spread is how far the runs' TotalMs are apart, in percent of the
	// least.
	Spread float64 `json:"spread_percent"`
	// ResolutionMs is the most a record's time was late in any run;
	// TypicalMs the records' typical lateness (the larger of the runs').
	ResolutionMs float64 `json:"resolution_ms"`
	TypicalMs    float64 `json:"typical_resolution_ms"`
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
	if opt.Risk == 0 {
		opt.Risk = DefaultRisk
	}
	res := &Result{Base: info(base), New: info(next), Options: opt, Counts: map[string]int{}}
	var names [2]map[string]bool
	for i, side := range []Side{base, next} {
		names[i] = map[string]bool{}
		unknown := false
		for _, p := range side.Runs {
			for name := range p.Methods {
				switch {
				case strings.HasPrefix(name, "<unknown id "):
					unknown = true // an id's number means nothing across builds
				default:
					names[i][name] = true
				}
			}
		}
		if unknown {
			res.Notes = append(res.Notes, side.Label+": ids not in its map are left out of the comparison (the map of another build?)")
		}
	}
	pairs := signaturePairs(names[0], names[1])
	paired := map[string]bool{}
	for _, b := range pairs {
		paired[b] = true
	}
	var both []Method
	var samples []sample
	var runMs [][2][]float64
	for _, name := range slices.Sorted(maps.Keys(names[1])) {
		baseName, isPair := pairs[name]
		switch {
		case names[0][name]:
			baseName = name
		case !isPair:
			res.add(Method{Name: name, Status: New}, base.Runs, next.Runs, opt)
			continue
		}
		m, s, r := measure(baseName, name, base.Runs, next.Runs, opt)
		if isPair {
			m.BaseName = baseName
		}
		both = append(both, m)
		samples = append(samples, s)
		runMs = append(runMs, r)
	}
	for name := range names[0] {
		if !names[1][name] && !paired[name] {
			res.add(Method{Name: name, Status: Gone}, base.Runs, next.Runs, opt)
		}
	}
	res.Compared = len(both)
	res.Statistics = len(base.Runs) >= MinRuns && len(next.Runs) >= MinRuns
	var guard []noise
	if res.Statistics && len(both) > 0 {
		if !opt.unguarded {
			guard = sizeNoise(both, samples, runMs, opt)
		}
		normalizeRuns(samples)
		vars := make([]float64, len(samples))
		df := 0
		for i, smp := range samples {
			vars[i], df = smp.pooled()
		}
		pr := fitPrior(vars, df)
		ps := make([]float64, len(samples))
		for i, smp := range samples {
			t, d := moderatedT(smp, pr)
			ps[i] = twoSidedP(t, d)
		}
		for i, q := range benjaminiHochberg(ps) {
			q = round4(q)
			both[i].Q = &q
		}
	}
	for i, m := range both {
		var n noise
		if guard != nil {
			n = guard[i]
		}
		m.Status, m.Reason = verdict(m, opt, res.Statistics, n)
		res.Methods = append(res.Methods, m)
	}
	if opt.Only != nil {
		// The statistics and the guard learnt from every method; the
		// verdicts shown and gated on are the chosen ones'.
		res.Methods = slices.DeleteFunc(res.Methods, func(m Method) bool { return !opt.Only.MatchString(m.Name) })
	}
	addCallers(res.Methods, base.Runs, next.Runs)
	for _, m := range res.Methods {
		res.Counts[m.Status]++
	}
	if n := sittingsNote(base, next); n != "" {
		res.Notes = append(res.Notes, n)
	}
	if !res.Statistics && !opt.Strict {
		res.Notes = append(res.Notes, tooFewNote(min(len(base.Runs), len(next.Runs))))
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

// tooFewNote says why no method got a verdict.
func tooFewNote(runs int) string {
	what := "a side with a single run shows no noise"
	if runs > 1 {
		what = fmt.Sprintf("a side with %d runs shows too little of its noise (%d a side at least)", runs, MinRuns)
	}
	return what + ": no method is called regressed or improved (tracebeat record -n 5 makes repetitions; --strict decides by the thresholds alone)"
}

// add puts a method found in one build only in the result.
func (r *Result) add(m Method, base, next []*profile.Profile, opt Options) {
	full, _, _ := measure(m.Name, m.Name, base, next, opt)
	full.Status = m.Status
	full.ClockMs = 0
	r.Methods = append(r.Methods, full)
}

// verdict decides a method both builds call: regressed or improved when
// its median moved by more than the thresholds, more than the clock may
// account for, and (with MinRuns runs a side or more) more than the runs'
// noise makes: significant at the comparison's risk (its q), and a move
// larger than n (sizeNoise: what nine methods in ten of its size do
// between runs of one build).
func verdict(m Method, opt Options, stats bool, n noise) (status, reason string) {
	baseT, newT := deciders(m, opt)
	d := newT - baseT
	switch {
	case !changed(d, baseT, opt) && !changed(-d, baseT, opt):
		return Same, WithinThreshold
	case abs(d) <= m.ClockMs:
		return Same, WithinClock
	case !stats && !opt.Strict:
		return Same, TooFewRuns
	case stats && (m.Q == nil || *m.Q > opt.Risk || n.hides(baseT, newT)):
		return Same, WithinNoise
	case d > 0:
		return Regressed, ""
	}
	return Improved, ""
}

// deciders are the medians the verdict is made on.
func deciders(m Method, opt Options) (base, next float64) {
	if opt.ByTotal {
		return m.TotalMsBase, m.TotalMsNew
	}
	return m.SelfMsBase, m.SelfMsNew
}

// signaturePairs finds methods whose descriptor changed: a name in NEW
// only and one in BASE only, the same class and method name, the only one
// of each: NEW's name -> BASE's.
func signaturePairs(base, next map[string]bool) map[string]string {
	stem := func(name string) string {
		if i := strings.IndexByte(name, '('); i > 0 {
			return name[:i]
		}
		return ""
	}
	only := func(in, other map[string]bool) map[string][]string {
		out := map[string][]string{}
		for n := range in {
			if !other[n] && stem(n) != "" {
				out[stem(n)] = append(out[stem(n)], n)
			}
		}
		return out
	}
	gone, fresh := only(base, next), only(next, base)
	pairs := map[string]string{}
	for s, ns := range fresh {
		if g := gone[s]; len(ns) == 1 && len(g) == 1 {
			pairs[ns[0]] = g[0]
		}
	}
	return pairs
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
		var total int64
		if p.Tree != nil {
			for _, c := range p.Tree.Children {
				total += c.Stat.Total
			}
		}
		in.TotalMs = append(in.TotalMs, ms(total))
		in.ResolutionMs = max(in.ResolutionMs, float64(p.Resolution)/1e6)
		in.TypicalMs = max(in.TypicalMs, float64(typical(p))/1e6)
	}
	slices.Sort(in.Builds)
	in.Calls = int64(median(calls))
	if len(in.TotalMs) > 1 && slices.Min(in.TotalMs) > 0 {
		in.Spread = round2((slices.Max(in.TotalMs) - slices.Min(in.TotalMs)) / slices.Min(in.TotalMs) * 100)
	}
	return in
}

// typical is a run's typical lateness of a record (its worst when the
// recording does not say), in ns.
func typical(p *profile.Profile) int64 {
	if p.TypicalResolution > 0 {
		return p.TypicalResolution
	}
	return p.Resolution
}

// lateBound is a run's typical lateness of a record that carried an
// earlier record's time (its worst when the recording does not say), in ns.
func lateBound(p *profile.Profile) int64 {
	if p.LateResolution > 0 {
		return p.LateResolution
	}
	return typical(p)
}

// measure compares one method, named baseName in BASE and name in NEW:
// its medians, ranges and clock allowance, and its deciding times a run,
// on the log scale for the statistics and in ms (BASE's, NEW's).
func measure(baseName, name string, base, next []*profile.Profile, opt Options) (Method, sample, [2][]float64) {
	m := Method{Name: name}
	type runs struct{ calls, lateCalls, lateChildren, self, total []float64 }
	collect := func(ps []*profile.Profile, name string) (r runs, clockMs float64) {
		for _, p := range ps {
			s := p.Methods[name]
			r.calls = append(r.calls, float64(s.Calls))
			r.lateCalls = append(r.lateCalls, float64(s.LateCalls))
			r.lateChildren = append(r.lateChildren, float64(s.LateChildCalls))
			r.self = append(r.self, ms(s.Self))
			r.total = append(r.total, ms(s.Total))
			clockMs = max(clockMs, float64(lateBound(p))/1e6)
		}
		return r, clockMs
	}
	b, baseClock := collect(base, baseName)
	n, newClock := collect(next, name)
	m.CallsBase, m.CallsNew = int64(median(b.calls)), int64(median(n.calls))
	m.SelfMsBase, m.SelfMsNew = median(b.self), median(n.self)
	m.TotalMsBase, m.TotalMsNew = median(b.total), median(n.total)
	m.SelfMsDelta, m.TotalMsDelta = round3(m.SelfMsNew-m.SelfMsBase), round3(m.TotalMsNew-m.TotalMsBase)
	m.SelfMsBaseRange, m.SelfMsNewRange = spread(b.self), spread(n.self)
	m.TotalMsBaseRange, m.TotalMsNewRange = spread(b.total), spread(n.total)
	// A call's time is the difference of two records' times, each late by
	// up to the clock's bound: the interval is off by at most one bound. A
	// self time takes its calls' intervals less those of the calls they
	// made, so it may carry one bound for each of both. Only calls with a
	// record that carried an earlier record's time count: the others read
	// the clock for each of their records (code that calls little, a late
	// clock thread) and have their exact times.
	records := func(r runs) float64 {
		if opt.ByTotal {
			return median(r.lateCalls)
		}
		return median(r.lateCalls) + median(r.lateChildren)
	}
	m.ClockMs = round3(max(baseClock*records(b), newClock*records(n)))
	baseT, newT := deciders(m, opt)
	if baseT > 0 {
		m.DeltaPercent = round2((newT - baseT) / baseT * 100)
	}
	if opt.ByTotal {
		return m, sample{base: logTimes(b.total), next: logTimes(n.total)}, [2][]float64{b.total, n.total}
	}
	return m, sample{base: logTimes(b.self), next: logTimes(n.self)}, [2][]float64{b.self, n.self}
}

// changed reports whether a growth of d ms over base ms passes both
// thresholds.
func changed(d, base float64, opt Options) bool {
	return d > opt.MinMs && d > base*opt.Threshold/100
}

func ms(ns int64) float64 { return round3(float64(ns) / 1e6) }

func round2(x float64) float64 { return float64(int64(x*100+copysign(0.5, x))) / 100 }
func round3(x float64) float64 { return float64(int64(x*1000+copysign(0.5, x))) / 1000 }
func round4(x float64) float64 { return float64(int64(x*10000+copysign(0.5, x))) / 10000 }

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
