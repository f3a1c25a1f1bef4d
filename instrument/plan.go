package instrument

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/methodmap"
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

// duplicate is a class found in a second input: Java loads the first.
type duplicate struct{ first, second, class string }

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

// classPlan is what planClasses found.
type classPlan struct {
	dups       []duplicate // classes in a second input, in input order
	duplicates []string    // their names, sorted (Result.Duplicates)
	hierarchy  *hierarchy  // of the inputs and the class path, for the focus call
}

// planClasses finds the classes in more than one input and the class
// hierarchy (the class path's supplies superclasses only); orig gives a
// class's original name.
func (s scanSet) planClasses(inputs []*jario.Input, cpSuper map[string]string, orig func(string) string) classPlan {
	var out classPlan
	h := &hierarchy{super: map[string]string{}, inInput: map[string]*classInfo{}, orig: orig}
	out.hierarchy = h
	for k, v := range cpSuper {
		h.super[k] = v
	}
	where := map[string]string{}
	dups := map[string]bool{}
	for i, infos := range s {
		for _, ci := range infos {
			if ci == nil || ci.versioned {
				continue
			}
			if prev, seen := where[ci.name]; seen && prev != inputs[i].Path {
				if !dups[ci.name] {
					out.dups = append(out.dups, duplicate{first: prev, second: inputs[i].Path, class: ci.name})
				}
				dups[ci.name] = true
			} else if !seen {
				where[ci.name] = inputs[i].Path
				h.inInput[ci.name] = ci
			}
			h.super[ci.name] = ci.super
		}
	}
	for d := range dups {
		out.duplicates = append(out.duplicates, d)
	}
	sort.Strings(out.duplicates)
	return out
}

// assignIDs gives every traced method its id, with base's ids where it
// has them, and returns the high-water mark.
func (s scanSet) assignIDs(base *methodmap.Map) (int, error) {
	if highWater, ok := s.assignIDsInOrder(base); ok {
		return highWater, nil
	}
	// Names whose order the class-by-class walk cannot follow (a class
	// name with a space, say), or an error to report: the whole list.
	n := 0
	s.eachTraced(func(*classInfo, *methodInfo) { n++ })
	traced := make([]methodmap.Method, 0, n)
	tracedAt := make([]*methodInfo, 0, n)
	s.eachTraced(func(ci *classInfo, m *methodInfo) {
		traced = append(traced, methodmap.Method{Key: ci.key(m), Access: m.access})
		tracedAt = append(tracedAt, m)
	})
	ids, highWater, err := methodmap.AssignIDs(traced, base)
	if err != nil {
		return 0, err
	}
	for i, mi := range tracedAt {
		mi.id = int32(ids[i])
	}
	return highWater, nil
}

// assignIDsInOrder gives the ids class by class: the classes sorted by
// name, the methods of each (and of its copies in other inputs) by name
// and descriptor, handed to an OrderedAssigner in that order. Nothing is
// held per method but its id, where a list of every traced method with
// its key text, for one global sort, took some 240 bytes per method (160
// MB for a build of 700,000). It reports false, having decided nothing
// for good, when the assigner refuses the order or a method.
func (s scanSet) assignIDsInOrder(base *methodmap.Map) (int, bool) {
	var classes []*classInfo
	for _, infos := range s {
		for _, ci := range infos {
			if ci != nil && slices.ContainsFunc(ci.methods, func(m methodInfo) bool { return m.trace }) {
				classes = append(classes, ci)
			}
		}
	}
	slices.SortFunc(classes, func(a, b *classInfo) int { return strings.Compare(a.origName, b.origName) })
	a, err := methodmap.NewOrderedAssigner(base)
	if err != nil {
		return 0, false
	}
	type traced struct {
		ci *classInfo
		m  *methodInfo
	}
	var group []traced
	for i := 0; i < len(classes); {
		group = group[:0]
		j := i
		for ; j < len(classes) && classes[j].origName == classes[i].origName; j++ {
			ci := classes[j]
			for k := range ci.methods {
				if m := &ci.methods[k]; m.trace {
					group = append(group, traced{ci, m})
				}
			}
		}
		slices.SortFunc(group, func(x, y traced) int {
			kx, ky := x.ci.key(x.m), y.ci.key(y.m)
			return cmp.Or(strings.Compare(kx.Name, ky.Name), strings.Compare(kx.Desc, ky.Desc), int(x.m.access)-int(y.m.access))
		})
		for _, t := range group {
			id, err := a.Add(t.ci.key(t.m), t.m.access)
			if err != nil {
				return 0, false
			}
			t.m.id = int32(id)
		}
		i = j
	}
	return a.HighWater(), true
}

// compareFields orders keys by class, name, then descriptor.
func compareFields(a, b MethodKey) int {
	return cmp.Or(strings.Compare(a.Class, b.Class), strings.Compare(a.Name, b.Name), strings.Compare(a.Desc, b.Desc))
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
