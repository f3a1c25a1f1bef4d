package instrument

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/tracebeat/tracebeat/instrument/jario"
	"github.com/tracebeat/tracebeat/methodmap"
)

// scanSet holds the scans of a run: scanSet[i][j] is the scan of entry j of
// input i, nil for an entry that is not a class or could not be parsed.
// Its walks over every method of the build are what planning, the maps and
// the rule counts are made from; they take what else they need as
// arguments.
type scanSet [][]*classInfo

// eachTraced calls fn for every traced method of the inputs, in input order.
func (s scanSet) eachTraced(fn func(ci *classInfo, m *methodInfo)) {
	s.eachMethod(func(ci *classInfo, j int) {
		if m := &ci.methods[j]; m.trace {
			fn(ci, m)
		}
	})
}

// eachMethod calls fn for every method of the inputs (method j of class
// ci), in input order.
func (s scanSet) eachMethod(fn func(ci *classInfo, j int)) {
	for _, infos := range s {
		for _, ci := range infos {
			if ci == nil {
				continue
			}
			for j := range ci.methods {
				fn(ci, j)
			}
		}
	}
}

// ruleTally counts the rules over every class of the run, each class
// name once (a class in two inputs is one class to the rules), and lists
// the original class names, sorted, when names is set (the policy has
// class rules).
func (s scanSet) ruleTally(names bool) (ruleTally, []string) {
	t := newRuleTally()
	seen := map[string]bool{}
	for _, infos := range s {
		for _, ci := range infos {
			if ci == nil || seen[ci.origName] {
				continue
			}
			seen[ci.origName] = true
			t.add(ci, +1)
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

// duplicate is a class found in a second input: Java loads the first.
type duplicate struct{ first, second, class string }

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
func compareFields(a, b methodmap.MethodKey) int {
	return cmp.Or(strings.Compare(a.Class, b.Class), strings.Compare(a.Name, b.Name), strings.Compare(a.Desc, b.Desc))
}
