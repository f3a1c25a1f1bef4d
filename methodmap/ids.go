package methodmap

import (
	"errors"
	"fmt"
	"slices"
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
	a, err := assign(methods, base, MaxID, false)
	if err != nil {
		return nil, err
	}
	return a.toMap(), nil
}

// AssignIDs assigns as Assign does but returns, instead of the map, the id
// of every input method (ids[i] for methods[i]) and the map's high-water
// mark: a caller holding hundreds of thousands of methods builds the map
// it needs from its own records, and the map Assign would return is never
// held next to them.
func AssignIDs(methods []Method, base *Map) (ids []int, highWater int, err error) {
	a, err := assign(methods, base, MaxID, false)
	if err != nil {
		return nil, 0, err
	}
	return a.inputIDs(), a.high, nil
}

// assignment is what assign decided: the methods merged by key (ms), the
// id of each (ids), which of them each input method is (origin), and the
// high-water mark.
type assignment struct {
	ms     []Method
	ids    []int
	origin []int
	high   int
}

// toMap returns the map of the assignment: entries sorted by id, the
// dispatch entry last.
func (a *assignment) toMap() *Map {
	out := &Map{HighWater: a.high, Entries: make([]Entry, 0, len(a.ms)+1)}
	for i, m := range a.ms {
		out.Entries = append(out.Entries, Entry{ID: a.ids[i], Access: m.Access, Key: m.Key})
	}
	slices.SortFunc(out.Entries, func(a, b Entry) int { return a.ID - b.ID })
	out.Entries = append(out.Entries, DispatchEntry())
	return out
}

// inputIDs returns the id of every input method.
func (a *assignment) inputIDs() []int {
	ids := make([]int, len(a.origin))
	for i, u := range a.origin {
		ids[i] = a.ids[u]
	}
	return ids
}

// assign is Assign with the id ceiling as a parameter; sortAll turns the
// shortcut for base maps off (the tests compare both paths).
func assign(methods []Method, base *Map, maxID int, sortAll bool) (*assignment, error) {
	// The base entries by the key of their map line (values: entry index).
	var baseAt *keyIndex
	high := 0
	if base != nil {
		bad, index := validateIndexed(base.Entries, "base map", validateOptions{maxID: maxID})
		if len(bad) > 0 {
			return nil, fmt.Errorf("base map is not usable: %s", bad[0].Msg)
		}
		baseAt = index
		for _, e := range base.Entries {
			if e.ID != DispatchID {
				high = max(high, e.ID)
			}
		}
		if base.HighWater > maxID {
			return nil, fmt.Errorf("base map: highest-id %d is above %d", base.HighWater, maxID)
		}
		high = max(high, base.HighWater)
	}
	var ms []Method
	var origin []int
	var baseOf []int32 // per unique method: its base entry, or -1
	if baseAt != nil && !sortAll {
		// Most methods keep their base ids: only the new ones need the order.
		ms, origin, baseOf = uniqueAgainstBase(methods, base, baseAt)
	}
	inKeyOrder := ms == nil
	if ms == nil {
		var err error
		if ms, origin, err = uniqueSorted(methods); err != nil {
			return nil, err
		}
		baseOf = make([]int32, len(ms))
		for i, m := range ms {
			baseOf[i] = -1
			if baseAt != nil {
				if b, ok := baseAt.get(lineKey(m.Key, m.Access)); ok && base.Entries[b].ID != DispatchID {
					baseOf[i] = b
				}
			}
		}
	}

	uniqueID := make([]int, len(ms))
	var fresh []int // indexes into ms
	for i, b := range baseOf {
		if b >= 0 {
			uniqueID[i] = base.Entries[b].ID
		} else {
			fresh = append(fresh, i)
		}
	}
	if len(fresh) > maxID-high {
		return nil, fmt.Errorf("%w: %d methods need ids above %d, but the highest usable id is %d",
			ErrIDSpaceExhausted, len(fresh), high, maxID)
	}
	// New methods are numbered in key order, which ms is in when
	// uniqueSorted made it.
	if !inKeyOrder {
		slices.SortFunc(fresh, func(a, b int) int { return compareMethods(ms[a], ms[b]) })
	}
	next := high
	for _, i := range fresh {
		next++
		uniqueID[i] = next
	}
	return &assignment{ms: ms, ids: uniqueID, origin: origin, high: next}, nil
}

// compareMethods is the order of uniqueSorted.
func compareMethods(a, b Method) int {
	if c := compareKeys(a.Key, b.Key); c != 0 {
		return c
	}
	return int(a.Access) - int(b.Access)
}

// uniqueAgainstBase is uniqueSorted without the sort, for runs where most
// methods take their ids from a base map: methods merged by key in
// first-seen order, the smallest access kept, and the base entry of each
// (-1: new). A method found in the base is merged through its entry
// index, so only new methods need a table of their own. It returns nil
// when some method needs uniqueSorted's checks (a native, whose map line
// drops the descriptor, or the dispatch key); the caller then takes that
// path, which also reports the errors.
func uniqueAgainstBase(methods []Method, base *Map, baseAt *keyIndex) ([]Method, []int, []int32) {
	ms := make([]Method, 0, len(methods))
	baseOf := make([]int32, 0, len(methods))
	origin := make([]int, len(methods))
	uniqueOfBase := make([]int32, len(base.Entries)) // unique index + 1; 0: not seen
	freshAt := newKeyIndex(0, func(u int32) MethodKey { return ms[u].Key })
	for i, m := range methods {
		if m.Access&accNative != 0 || m.Key.Desc == "" || m.Key == DispatchKey {
			return nil, nil, nil
		}
		// Without natives a map line's key is the method's key.
		b, inBase := baseAt.get(m.Key)
		inBase = inBase && base.Entries[b].ID != DispatchID
		var u int32
		seen := false
		if inBase {
			u, seen = uniqueOfBase[b]-1, uniqueOfBase[b] != 0
		} else {
			u, seen = freshAt.get(m.Key)
		}
		if !seen {
			u = int32(len(ms))
			ms = append(ms, m)
			if inBase {
				uniqueOfBase[b] = u + 1
				baseOf = append(baseOf, b)
			} else {
				freshAt.put(m.Key, u)
				baseOf = append(baseOf, -1)
			}
		} else if m.Access < ms[u].Access {
			ms[u].Access = m.Access
		}
		origin[i] = int(u)
	}
	return ms, origin, baseOf
}

// uniqueSorted sorts by key, merges exact duplicates and rejects methods a
// map line could not tell apart (native overloads) or that would clash with
// the dispatch entry. origin[i] is the index in the result of methods[i].
func uniqueSorted(methods []Method) ([]Method, []int, error) {
	// Sort by the key text computed once per method: comparing ready
	// strings is several times faster than walking keys per comparison.
	ks := sortKeyed(methods)
	ms := make([]Method, 0, len(ks))
	origin := make([]int, len(methods))
	// Only native methods drop their descriptor from the map line, so only
	// they can collide with another method's line.
	natives := map[MethodKey]MethodKey{}
	for i := range ks {
		m := methods[ks[i].i]
		if len(ms) == 0 || ms[len(ms)-1].Key != m.Key {
			lk := lineKey(m.Key, m.Access)
			if lk == DispatchKey {
				return nil, nil, fmt.Errorf("method %s cannot be traced: the map reserves it for the dispatch entry (id %d)", m.Key, DispatchID)
			}
			if m.Access&accNative != 0 || m.Key.Desc == "" {
				if prev, dup := natives[lk]; dup {
					return nil, nil, fmt.Errorf("methods %s and %s would get the same map line %q", prev, m.Key, lk.String())
				}
				natives[lk] = m.Key
			}
			ms = append(ms, m)
		}
		origin[ks[i].i] = len(ms) - 1
	}
	return ms, origin, nil
}
