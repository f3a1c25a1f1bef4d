package instrument

import (
	"sort"
	"strings"

	"github.com/tracebeat/tracebeat/instrument/scan"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"go.uber.org/zap"
)

// plan assigns ids and finds the Activity classes that get the focus call.
func (p *pipeline) plan() error {
	// Classes (duplicates, the Activity hierarchy) and methods (ids) are
	// planned at once: they read different fields of the scan records.
	done := make(chan struct{})
	var classes scan.ClassPlan
	go func() {
		defer close(done)
		classes = p.infos.PlanClasses(p.inputs, p.cpSuper, p.opt.Policy.OriginalName)
	}()
	highWater, err := p.infos.AssignIDs(p.base)
	<-done
	p.highWater, p.dups, p.res.Duplicates = highWater, classes.Dups, classes.Duplicates
	if p.opt.Runtime.Mode == rewrite.ModeBeat {
		p.focus = classes.Hierarchy.FocusTargets()
	}
	p.warns.duplicates(p.dups, p.opt.Log)
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci != nil && ci.OrigName != ci.Name {
				p.res.Renamed++
			}
		}
	}
	if err != nil {
		return err
	}
	p.tally.skipped = map[MethodKey]string{}
	return nil
}

// duplicates reports the classes in more than one input: one line per
// pair of inputs with the count and three examples (two copies of one
// library give thousands), every class at debug level.
func (w *runWarnings) duplicates(dups []scan.Duplicate, log *zap.Logger) {
	type pair struct{ first, second string }
	byPair := map[pair][]string{}
	var order []pair
	for _, d := range dups {
		k := pair{d.First, d.Second}
		if _, ok := byPair[k]; !ok {
			order = append(order, k)
		}
		byPair[k] = append(byPair[k], d.Class)
		log.Debug("class in more than one input", zap.String("class", d.Class), zap.String("used", d.First), zap.String("also", d.Second))
	}
	for _, k := range order {
		classes := byPair[k]
		sort.Strings(classes)
		eg := strings.Join(classes[:min(3, len(classes))], ", ")
		if len(classes) > 3 {
			eg += ", ..."
		}
		noun := "classes are"
		if len(classes) == 1 {
			noun = "class is"
		}
		w.warn("%d %s in both %s and %s (the first is used; all at --log-level debug): %s",
			len(classes), noun, k.first, k.second, eg)
	}
}

// focusSet holds the Activity classes that get the focus call.
type focusSet map[string]bool

// plansFor returns what to do with one class: its traced methods' plans,
// and whether the focus method is added to it.
func (fs focusSet) plansFor(ci *scan.Class) (plans []rewrite.MethodPlan, addFocus bool) {
	focus := fs[ci.Name] && !ci.Versioned && !instrumentedBefore(ci)
	for i, m := range ci.Methods {
		mp := rewrite.MethodPlan{Index: i}
		if m.Trace {
			mp.Trace, mp.ID = true, int(m.ID)
		}
		if focus && i == ci.FocusIndex() && ci.FocusCode {
			mp.Focus = true
		}
		if mp.Trace || mp.Focus {
			plans = append(plans, mp)
		}
	}
	return plans, focus && ci.FocusIndex() < 0
}
