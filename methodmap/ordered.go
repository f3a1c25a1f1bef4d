package methodmap

import "errors"

// ErrNotOrdered is returned by OrderedAssigner.Add for a method that
// does not come after the one before it in key order.
var ErrNotOrdered = errors.New("methods not in key order")

// An OrderedAssigner gives ids as AssignIDs does to methods that the
// caller presents in key order (compareKeys), one call per method, without
// holding them: a build of a million methods needs no list, no key texts
// and no sort here. A method listed twice must be presented twice in a
// row; both get one id.
//
// Add fails on anything AssignIDs might answer differently or reject: a
// method out of order (ErrNotOrdered), the dispatch key, native methods
// whose map lines collide, ids running out. The caller then gives the
// whole list to AssignIDs, which decides and words the error.
type OrderedAssigner struct {
	base    *Map
	baseAt  *keyIndex
	next    int // the last id handed to a new method
	maxID   int
	prev    MethodKey
	prevID  int
	started bool
	natives map[MethodKey]MethodKey
}

// NewOrderedAssigner starts an assignment against base (nil: none).
func NewOrderedAssigner(base *Map) (*OrderedAssigner, error) {
	a := &OrderedAssigner{base: base, maxID: MaxID, natives: map[MethodKey]MethodKey{}}
	if base != nil {
		bad, index := validateIndexed(base.Entries, "base map", validateOptions{maxID: MaxID})
		if len(bad) > 0 || base.HighWater > MaxID {
			return nil, errors.New("base map is not usable") // AssignIDs words it
		}
		a.baseAt = index
		for _, e := range base.Entries {
			if e.ID != DispatchID {
				a.next = max(a.next, e.ID)
			}
		}
		a.next = max(a.next, base.HighWater)
	}
	return a, nil
}

// Add returns the id of the next method in key order.
func (a *OrderedAssigner) Add(k MethodKey, access uint16) (int, error) {
	if a.started {
		c := compareKeys(a.prev, k)
		if c == 0 {
			return a.prevID, nil
		}
		if c > 0 {
			return 0, ErrNotOrdered
		}
	}
	lk := lineKey(k, access)
	if lk == DispatchKey {
		return 0, errors.New("the dispatch key")
	}
	if access&accNative != 0 || k.Desc == "" {
		if _, dup := a.natives[lk]; dup {
			return 0, errors.New("native methods share a map line")
		}
		a.natives[lk] = k
	}
	id := 0
	if a.baseAt != nil {
		if b, ok := a.baseAt.get(lk); ok && a.base.Entries[b].ID != DispatchID {
			id = a.base.Entries[b].ID
		}
	}
	if id == 0 {
		if a.next >= a.maxID {
			return 0, ErrIDSpaceExhausted
		}
		a.next++
		id = a.next
	}
	a.prev, a.prevID, a.started = k, id, true
	return id, nil
}

// HighWater is the map's high-water mark after the methods added so far.
func (a *OrderedAssigner) HighWater() int { return a.next }
