package instrument

import (
	"io"
	"slices"

	"github.com/tracebeat/tracebeat/methodmap"
)

// ignoredList is the ignore map as the run's scans hold it: the methods
// left untraced, sorted by key, each key once. A line takes 16 bytes here
// and 72 as a methodmap.IgnoredMethod; a large build ignores half a
// million methods, written from here at the end of the run (and made
// into a list only when a caller asks, Options.Lists).
type ignoredList struct {
	refs []ignoredRef
}

// ignoredRef is method m of class ci, left out for reason.
type ignoredRef struct {
	ci     *classInfo
	m      uint32
	reason reasonCode
}

func (r *ignoredRef) key() methodmap.MethodKey { return r.ci.key(&r.ci.methods[r.m]) }

func (r *ignoredRef) method() methodmap.IgnoredMethod {
	m := &r.ci.methods[r.m]
	return methodmap.IgnoredMethod{Key: r.ci.key(m), Access: m.access, Reason: methodmap.Reason(reasons.text(r.reason))}
}

// ignoredList lists the methods left untraced, and skipped: the planned
// ones that could not be rewritten, with the reason. The same method can
// come twice (a class in two inputs, multi-release variants): the first in
// input order is kept.
func (s scanSet) ignoredList(skipped map[methodmap.MethodKey]string) *ignoredList {
	n := 0
	s.eachMethod(func(ci *classInfo, j int) {
		if !ci.methods[j].trace {
			n++
		}
	})
	refs := make([]ignoredRef, 0, n+len(skipped))
	s.eachMethod(func(ci *classInfo, j int) {
		m := &ci.methods[j]
		if !m.trace {
			refs = append(refs, ignoredRef{ci: ci, m: uint32(j), reason: m.reason})
		} else if len(skipped) > 0 {
			if r, bad := skipped[ci.key(m)]; bad {
				refs = append(refs, ignoredRef{ci: ci, m: uint32(j), reason: reasons.code(r)})
			}
		}
	})
	slices.SortStableFunc(refs, func(a, b ignoredRef) int { return compareFields(a.key(), b.key()) })
	refs = slices.CompactFunc(refs, func(a, b ignoredRef) bool { return a.key() == b.key() })
	return &ignoredList{refs: slices.Clip(refs)}
}

func (l *ignoredList) len() int { return len(l.refs) }

// methods returns the list as methodmap's records.
func (l *ignoredList) methods() []methodmap.IgnoredMethod {
	out := make([]methodmap.IgnoredMethod, len(l.refs))
	for i := range l.refs {
		out[i] = l.refs[i].method()
	}
	return out
}

// countByReason counts the methods by reason text.
func (l *ignoredList) countByReason() map[string]int {
	codes := map[reasonCode]int{}
	for i := range l.refs {
		codes[l.refs[i].reason]++
	}
	out := make(map[string]int, len(codes))
	for c, n := range codes {
		out[reasons.text(c)] += n
	}
	return out
}

// writeTo writes the ignore map.
func (l *ignoredList) writeTo(w io.Writer) error {
	return methodmap.EncodeIgnoredTo(w, len(l.refs), func(i int) methodmap.IgnoredMethod { return l.refs[i].method() })
}
