package methodmap

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Id space, shared with the Matrix runtime: ids are packed into 20 bits of a
// long and the runtime ignores ids >= 0xFFFFF.
const (
	MaxID          = 0xFFFFF - 2 // 1048573, highest id of a traced method
	DispatchID     = 0xFFFFF - 1 // 1048574, the runtime's looper-dispatch pseudo method
	DispatchAccess = accPublic
)

// DispatchKey is the method the dispatch entry names.
var DispatchKey = MethodKey{Class: "android/os/Handler", Name: "dispatchMessage", Desc: "(Landroid/os/Message;)V"}

// DispatchEntry is the synthetic entry every written methodMapping.txt has.
func DispatchEntry() Entry {
	return Entry{ID: DispatchID, Access: DispatchAccess, Key: DispatchKey}
}

// ErrIDSpaceExhausted is wrapped by Assign when the ids run out.
var ErrIDSpaceExhausted = errors.New("id space exhausted")

// Assign gives every method an id and returns the map (entries sorted by id,
// the dispatch entry last).
//
// Without a base map the ids are 1..N in the order of compareKeys. With a
// base map, a method whose key (as a map line shows it) is in the base keeps
// its base id; the others get ids above the highest id the base ever used
// (its entries and its high-water mark, the dispatch id excluded), in the
// order of compareKeys. So ids are never handed out twice, not even the id
// of a method that has since disappeared.
//
// Methods listed twice with the same key are one method; the smallest access
// value wins so the result does not depend on input order.
func Assign(methods []Method, base *Map) (*Map, error) {
	return assign(methods, base, MaxID)
}

func assign(methods []Method, base *Map, maxID int) (*Map, error) {
	ms, err := uniqueSorted(methods)
	if err != nil {
		return nil, err
	}
	baseID := map[MethodKey]int{}
	high := 0
	if base != nil {
		if bad := validateEntries(base.Entries, "base map", validateOptions{maxID: maxID}); len(bad) > 0 {
			return nil, fmt.Errorf("base map is not usable: %s", bad[0].Msg)
		}
		for _, e := range base.Entries {
			if e.ID == DispatchID {
				continue
			}
			baseID[lineKey(e.Key, e.Access)] = e.ID
			high = max(high, e.ID)
		}
		if base.HighWater > maxID {
			return nil, fmt.Errorf("base map: highest-id %d is above %d", base.HighWater, maxID)
		}
		high = max(high, base.HighWater)
	}

	out := &Map{Entries: make([]Entry, 0, len(ms)+1)}
	var fresh []Method
	for _, m := range ms {
		if id, ok := baseID[lineKey(m.Key, m.Access)]; ok {
			out.Entries = append(out.Entries, Entry{ID: id, Access: m.Access, Key: m.Key})
		} else {
			fresh = append(fresh, m)
		}
	}
	if len(fresh) > maxID-high {
		return nil, fmt.Errorf("%w: %d methods need ids above %d, but the highest usable id is %d",
			ErrIDSpaceExhausted, len(fresh), high, maxID)
	}
	for i, m := range fresh {
		out.Entries = append(out.Entries, Entry{ID: high + 1 + i, Access: m.Access, Key: m.Key})
	}
	out.HighWater = high + len(fresh)
	slices.SortFunc(out.Entries, func(a, b Entry) int { return a.ID - b.ID })
	out.Entries = append(out.Entries, DispatchEntry())
	return out, nil
}

// uniqueSorted sorts by key, merges exact duplicates and rejects methods a
// map line could not tell apart (native overloads) or that would clash with
// the dispatch entry.
func uniqueSorted(methods []Method) ([]Method, error) {
	// Sort by the key text computed once per method: comparing ready
	// strings is several times faster than walking keys per comparison.
	type keyed struct {
		text string
		m    Method
	}
	ks := make([]keyed, len(methods))
	for i, m := range methods {
		ks[i] = keyed{m.Key.String(), m}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := strings.Compare(a.text, b.text); c != 0 {
			return c
		}
		if c := compareKeys(a.m.Key, b.m.Key); c != 0 {
			return c
		}
		return int(a.m.Access) - int(b.m.Access)
	})
	ms := make([]Method, len(ks))
	for i := range ks {
		ms[i] = ks[i].m
	}
	ms = slices.CompactFunc(ms, func(a, b Method) bool { return a.Key == b.Key })
	seen := make(map[MethodKey]MethodKey, len(ms))
	for _, m := range ms {
		lk := lineKey(m.Key, m.Access)
		if lk == DispatchKey {
			return nil, fmt.Errorf("method %s cannot be traced: the map reserves it for the dispatch entry (id %d)", m.Key, DispatchID)
		}
		if prev, dup := seen[lk]; dup {
			return nil, fmt.Errorf("methods %s and %s would get the same map line %q", prev, m.Key, lk.String())
		}
		seen[lk] = m.Key
	}
	return ms, nil
}
