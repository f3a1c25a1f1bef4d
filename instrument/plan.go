package instrument

import (
	"sort"
	"strings"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"go.uber.org/zap"
)

// plan assigns ids and finds the Activity classes that get the focus call.
func (p *pipeline) plan() error {
	// Classes (duplicates, the Activity hierarchy) and methods (ids) are
	// planned at once: they read different fields of the scan records.
	done := make(chan struct{})
	var classes classPlan
	go func() {
		defer close(done)
		classes = p.infos.planClasses(p.inputs, p.cpSuper, p.opt.Policy.originalClass)
	}()
	highWater, err := p.infos.assignIDs(p.base)
	<-done
	p.highWater, p.dups, p.res.Duplicates = highWater, classes.dups, classes.duplicates
	if p.opt.Runtime.Mode == rewrite.ModeBeat {
		p.focus = classes.hierarchy.focusTargets()
	}
	p.warns.duplicates(p.dups, p.opt.Log)
	for _, infos := range p.infos {
		for _, ci := range infos {
			if ci != nil && ci.origName != ci.name {
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
func (w *runWarnings) duplicates(dups []duplicate, log *zap.Logger) {
	type pair struct{ first, second string }
	byPair := map[pair][]string{}
	var order []pair
	for _, d := range dups {
		k := pair{d.first, d.second}
		if _, ok := byPair[k]; !ok {
			order = append(order, k)
		}
		byPair[k] = append(byPair[k], d.class)
		log.Debug("class in more than one input", zap.String("class", d.class), zap.String("used", d.first), zap.String("also", d.second))
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

// plansFor returns what to do with one class.
func (p *pipeline) plansFor(ci *classInfo) (plans []rewrite.MethodPlan, addFocus bool) {
	focus := p.focus[ci.name] && !ci.versioned && !instrumentedBefore(ci)
	for i, m := range ci.methods {
		mp := rewrite.MethodPlan{Index: i}
		if m.trace {
			mp.Trace, mp.ID = true, int(m.id)
		}
		if focus && i == ci.focusIndex() && ci.focusCode {
			mp.Focus = true
		}
		if mp.Trace || mp.Focus {
			plans = append(plans, mp)
		}
	}
	return plans, focus && ci.focusIndex() < 0
}
