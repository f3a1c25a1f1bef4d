package scan

import (
	"io"
	"slices"

	"github.com/tracebeat/tracebeat/methodmap"
)

// IgnoredList is the ignore map as the run's scans hold it: the methods
// left untraced, sorted by key, each key once. A line takes 16 bytes here
// and 72 as a methodmap.IgnoredMethod; a large build ignores half a
// million methods, written from here at the end of the run (and made
// into a list only when a caller asks, Options.Lists).
type IgnoredList struct {
	refs []ignoredRef
}

// ignoredRef is method m of class ci, left out for reason.
type ignoredRef struct {
	ci     *Class
	m      uint32
	reason ReasonCode
}

func (r *ignoredRef) key() methodmap.MethodKey { return r.ci.Key(&r.ci.Methods[r.m]) }

func (r *ignoredRef) method() methodmap.IgnoredMethod {
	m := &r.ci.Methods[r.m]
	return methodmap.IgnoredMethod{Key: r.ci.Key(m), Access: m.Access, Reason: methodmap.Reason(Reasons.Text(r.reason))}
}

// IgnoredList lists the methods left untraced, and skipped: the planned
// ones that could not be rewritten, with the reason. The same method can
// come twice (a class in two inputs, multi-release variants): the first in
// input order is kept.
func (s Set) IgnoredList(skipped map[methodmap.MethodKey]string) *IgnoredList {
	n := 0
	s.eachMethod(func(ci *Class, j int) {
		if !ci.Methods[j].Trace {
			n++
		}
	})
	refs := make([]ignoredRef, 0, n+len(skipped))
	s.eachMethod(func(ci *Class, j int) {
		m := &ci.Methods[j]
		if !m.Trace {
			refs = append(refs, ignoredRef{ci: ci, m: uint32(j), reason: m.Reason})
		} else if len(skipped) > 0 {
			if r, bad := skipped[ci.Key(m)]; bad {
				refs = append(refs, ignoredRef{ci: ci, m: uint32(j), reason: Reasons.Code(r)})
			}
		}
	})
	slices.SortStableFunc(refs, func(a, b ignoredRef) int { return CompareFields(a.key(), b.key()) })
	refs = slices.CompactFunc(refs, func(a, b ignoredRef) bool { return a.key() == b.key() })
	return &IgnoredList{refs: slices.Clip(refs)}
}

func (l *IgnoredList) Len() int { return len(l.refs) }

// Methods returns the list as methodmap's records.
func (l *IgnoredList) Methods() []methodmap.IgnoredMethod {
	out := make([]methodmap.IgnoredMethod, len(l.refs))
	for i := range l.refs {
		out[i] = l.refs[i].method()
	}
	return out
}

// CountByReason counts the methods by reason text.
func (l *IgnoredList) CountByReason() map[string]int {
	codes := map[ReasonCode]int{}
	for i := range l.refs {
		codes[l.refs[i].reason]++
	}
	out := make(map[string]int, len(codes))
	for c, n := range codes {
		out[Reasons.Text(c)] += n
	}
	return out
}

// writeTo writes the ignore map.
func (l *IgnoredList) WriteText(w io.Writer) error {
	return methodmap.EncodeIgnoredTo(w, len(l.refs), func(i int) methodmap.IgnoredMethod { return l.refs[i].method() })
}
