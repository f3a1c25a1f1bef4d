package instrument

import "slices"

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
