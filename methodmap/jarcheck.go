package methodmap

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// InstrumentedMethod is what a jar scanner found about one method of an
// instrumented jar. The scanner lists EVERY method with code of every class,
// instrumented or not, so that missing instrumentation can be seen.
type InstrumentedMethod struct {
	Class  string // internal form, slashes
	Name   string
	Desc   string
	Access uint16
	// InjectedIDs are the ids pushed for the trace calls of this method, in
	// any order, repeats allowed (entry and every exit carry the same id).
	InjectedIDs []int
}

// CheckJar compares an instrumented jar with its map. It reports an injected
// id the map lacks, an injected id the map gives to another method, a method
// injected with more than one distinct id, and a method the map lists that
// is in the jar but not instrumented. Methods of the map that are absent
// from the jar are not reported: a map covers all inputs, a jar maybe one.
// Names in the jar must be the names of the map (pre-obfuscation).
func CheckJar(m *Map, mapName string, jarName string, methods []InstrumentedMethod) []Violation {
	byKey, byID := indexEntries(m)
	for _, e := range m.Entries {
		if e.ID == DispatchID { // an injected dispatch id is a mismatch, not "not in map"
			byID[e.ID] = e
		}
	}

	ms := slices.Clone(methods)
	slices.SortFunc(ms, func(a, b InstrumentedMethod) int {
		return cmp.Or(
			compareKeys(MethodKey{a.Class, a.Name, a.Desc}, MethodKey{b.Class, b.Name, b.Desc}),
			int(a.Access)-int(b.Access),
			slices.Compare(a.InjectedIDs, b.InjectedIDs))
	})

	var vs []Violation
	for _, jm := range ms {
		k := lineKey(MethodKey{jm.Class, jm.Name, jm.Desc}, jm.Access)
		ids := slices.Sorted(slices.Values(jm.InjectedIDs))
		ids = slices.Compact(ids)
		if len(ids) == 0 {
			if e, mapped := byKey[k]; mapped {
				vs = append(vs, violation(KindNotTraced, jarName, 0, "method %s has id %d in %s%s but is not instrumented",
					k, e.ID, mapName, onLine(e)))
			}
			continue
		}
		if len(ids) > 1 {
			vs = append(vs, violation(KindMultipleIDs, jarName, 0, "method %s is instrumented with %d different ids: %s",
				k, len(ids), joinInts(ids)))
		}
		for _, id := range ids {
			e, ok := byID[id]
			switch {
			case !ok:
				vs = append(vs, violation(KindNotInMap, jarName, 0, "method %s is instrumented with id %d, which %s does not list",
					k, id, mapName))
			case lineKey(e.Key, e.Access) != k:
				vs = append(vs, violation(KindOwnerMismatch, jarName, 0, "method %s is instrumented with id %d, which %s gives to %s%s",
					k, id, mapName, lineKey(e.Key, e.Access), onLine(e)))
			}
		}
	}
	return vs
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
