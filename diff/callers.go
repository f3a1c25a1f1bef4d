package diff

import (
	"cmp"
	"slices"

	"github.com/tracebeat/tracebeat/profile"
)

// A method's self time also grows when its code is the same and its
// callers call it more: jsoup 1.18.1's HtmlTreeBuilder.doInsertElement
// asks ParseErrorList.canAddError() on every element it inserts, and
// canAddError's self time grew twentyfold with its calls. Such a verdict
// is true (the time is spent there) but points at the wrong code unless
// it says where the calls came from: the callers whose calls into the
// method changed.

// TopLevel names the callers of a method's top-level calls.
const TopLevel = "(top level)"

// callsChanged: calls that moved by more than this share of the larger
// side's get their callers listed.
const callsChanged = 0.1

// callersShown is how many callers a method lists, the largest change
// first.
const callersShown = 3

// Caller is a method calling a changed method, with its calls into it on
// each side (medians over the runs).
type Caller struct {
	Name      string `json:"name"`
	CallsBase int64  `json:"calls_base"`
	CallsNew  int64  `json:"calls_new"`
}

// addCallers lists, for each regressed or improved method whose calls
// changed, the callers whose calls into it changed most.
func addCallers(ms []Method, base, next []*profile.Profile) {
	want := map[[2]string]int{} // {side's name of the method, side} -> index
	for i, m := range ms {
		if m.Status != Regressed && m.Status != Improved {
			continue
		}
		if d := abs(float64(m.CallsNew - m.CallsBase)); d <= callsChanged*float64(max(m.CallsNew, m.CallsBase)) {
			continue
		}
		baseName := m.Name
		if m.BaseName != "" {
			baseName = m.BaseName
		}
		want[[2]string{baseName, "base"}] = i
		want[[2]string{m.Name, "new"}] = i
	}
	if len(want) == 0 {
		return
	}
	byMethod := map[int]map[string]*[2][]float64{} // method -> caller -> calls a run, each side
	for side, runs := range [][]*profile.Profile{base, next} {
		label := [2]string{"base", "new"}[side]
		for r, p := range runs {
			walkCallers(p.Tree, TopLevel, func(callee, caller string, calls int64) {
				i, ok := want[[2]string{callee, label}]
				if !ok {
					return
				}
				if byMethod[i] == nil {
					byMethod[i] = map[string]*[2][]float64{}
				}
				c := byMethod[i][caller]
				if c == nil {
					c = &[2][]float64{make([]float64, len(base)), make([]float64, len(next))}
					byMethod[i][caller] = c
				}
				c[side][r] += float64(calls)
			})
		}
	}
	for i, callers := range byMethod {
		var list []Caller
		for name, c := range callers {
			b, n := int64(median(c[0])), int64(median(c[1]))
			if b != n {
				list = append(list, Caller{Name: name, CallsBase: b, CallsNew: n})
			}
		}
		slices.SortFunc(list, func(a, b Caller) int {
			if c := cmp.Compare(abs(float64(b.CallsNew-b.CallsBase)), abs(float64(a.CallsNew-a.CallsBase))); c != 0 {
				return c
			}
			return cmp.Compare(a.Name, b.Name)
		})
		ms[i].Callers = list[:min(len(list), callersShown)]
	}
}

// walkCallers calls f for each call path below n: the method, its
// caller's name and the path's calls.
func walkCallers(n *profile.Node, name string, f func(callee, caller string, calls int64)) {
	for _, c := range n.Children {
		f(c.Name, name, c.Stat.Calls)
		walkCallers(c, c.Name, f)
	}
}
