package scan

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/tracebeat/tracebeat/instrument/jario"
	"github.com/tracebeat/tracebeat/methodmap"
)

// Set holds the scans of a run: Set[i][j] is the scan of entry j of
// input i, nil for an entry that is not a class or could not be parsed.
// Its walks over every method of the build are what planning, the maps and
// the rule counts are made from; they take what else they need as
// arguments.
type Set [][]*Class

// eachTraced calls fn for every traced method of the inputs, in input order.
func (s Set) eachTraced(fn func(ci *Class, m *Method)) {
	s.eachMethod(func(ci *Class, j int) {
		if m := &ci.Methods[j]; m.Trace {
			fn(ci, m)
		}
	})
}

// eachMethod calls fn for every method of the inputs (method j of class
// ci), in input order.
func (s Set) eachMethod(fn func(ci *Class, j int)) {
	for _, infos := range s {
		for _, ci := range infos {
			if ci == nil {
				continue
			}
			for j := range ci.Methods {
				fn(ci, j)
			}
		}
	}
}

// RuleTally counts the rules over every class of the run, each class
// name once (a class in two inputs is one class to the rules), and lists
// the original class names, sorted, when names is set (the policy has
// class rules).
func (s Set) RuleTally(names bool) (ruleTally, []string) {
	t := NewRuleTally()
	seen := map[string]bool{}
	for _, infos := range s {
		for _, ci := range infos {
			if ci == nil || seen[ci.OrigName] {
				continue
			}
			seen[ci.OrigName] = true
			t.Add(ci, +1)
		}
	}
	if !names {
		return t, nil
	}
	list := make([]string, 0, len(seen))
	for name := range seen {
		list = append(list, name)
	}
	slices.Sort(list)
	return t, list
}

// Duplicate is a class found in a second input: Java loads the first.
type Duplicate struct{ First, Second, Class string }

// ClassPlan is what PlanClasses found.
type ClassPlan struct {
	Dups       []Duplicate // classes in a second input, in input order
	Duplicates []string    // their names, sorted (Result.Duplicates)
	Hierarchy  *hierarchy  // of the inputs and the class path, for the focus call
}

// PlanClasses finds the classes in more than one input and the class
// hierarchy (the class path's supplies superclasses only); orig gives a
// class's original name.
func (s Set) PlanClasses(inputs []*jario.Input, cpSuper map[string]string, orig func(string) string) ClassPlan {
	var out ClassPlan
	h := &hierarchy{super: map[string]string{}, inInput: map[string]*Class{}, orig: orig}
	out.Hierarchy = h
	for k, v := range cpSuper {
		h.super[k] = v
	}
	where := map[string]string{}
	dups := map[string]bool{}
	for i, infos := range s {
		for _, ci := range infos {
			if ci == nil || ci.Versioned {
				continue
			}
			if prev, seen := where[ci.Name]; seen && prev != inputs[i].Path {
				if !dups[ci.Name] {
					out.Dups = append(out.Dups, Duplicate{First: prev, Second: inputs[i].Path, Class: ci.Name})
				}
				dups[ci.Name] = true
			} else if !seen {
				where[ci.Name] = inputs[i].Path
				h.inInput[ci.Name] = ci
			}
			h.super[ci.Name] = ci.Super
		}
	}
	for d := range dups {
		out.Duplicates = append(out.Duplicates, d)
	}
	sort.Strings(out.Duplicates)
	return out
}

// AssignIDs gives every traced method its id, with base's ids where it
// has them, and returns the high-water mark.
func (s Set) AssignIDs(base *methodmap.Map) (int, error) {
	if highWater, ok := s.assignIDsInOrder(base); ok {
		return highWater, nil
	}
	// Names whose order the class-by-class walk cannot follow (a class
	// name with a space, say), or an error to report: the whole list.
	n := 0
	s.eachTraced(func(*Class, *Method) { n++ })
	traced := make([]methodmap.Method, 0, n)
	tracedAt := make([]*Method, 0, n)
	s.eachTraced(func(ci *Class, m *Method) {
		traced = append(traced, methodmap.Method{Key: ci.Key(m), Access: m.Access})
		tracedAt = append(tracedAt, m)
	})
	ids, highWater, err := methodmap.AssignIDs(traced, base)
	if err != nil {
		return 0, err
	}
	for i, mi := range tracedAt {
		mi.ID = int32(ids[i])
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
func (s Set) assignIDsInOrder(base *methodmap.Map) (int, bool) {
	var classes []*Class
	for _, infos := range s {
		for _, ci := range infos {
			if ci != nil && slices.ContainsFunc(ci.Methods, func(m Method) bool { return m.Trace }) {
				classes = append(classes, ci)
			}
		}
	}
	slices.SortFunc(classes, func(a, b *Class) int { return strings.Compare(a.OrigName, b.OrigName) })
	a, err := methodmap.NewOrderedAssigner(base)
	if err != nil {
		return 0, false
	}
	type traced struct {
		ci *Class
		m  *Method
	}
	var group []traced
	for i := 0; i < len(classes); {
		group = group[:0]
		j := i
		for ; j < len(classes) && classes[j].OrigName == classes[i].OrigName; j++ {
			ci := classes[j]
			for k := range ci.Methods {
				if m := &ci.Methods[k]; m.Trace {
					group = append(group, traced{ci, m})
				}
			}
		}
		slices.SortFunc(group, func(x, y traced) int {
			kx, ky := x.ci.Key(x.m), y.ci.Key(y.m)
			return cmp.Or(strings.Compare(kx.Name, ky.Name), strings.Compare(kx.Desc, ky.Desc), int(x.m.Access)-int(y.m.Access))
		})
		for _, t := range group {
			id, err := a.Add(t.ci.Key(t.m), t.m.Access)
			if err != nil {
				return 0, false
			}
			t.m.ID = int32(id)
		}
		i = j
	}
	return a.HighWater(), true
}

// CompareFields orders keys by class, name, then descriptor.
func CompareFields(a, b methodmap.MethodKey) int {
	return cmp.Or(strings.Compare(a.Class, b.Class), strings.Compare(a.Name, b.Name), strings.Compare(a.Desc, b.Desc))
}
