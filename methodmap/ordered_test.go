package methodmap

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// orderedIDs presents methods to an OrderedAssigner in the order
// compareMethods sorts them and returns each method's id.
func orderedIDs(methods []Method, base *Map) ([]int, int, error) {
	order := make([]int, len(methods))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return compareMethods(methods[a], methods[b]) })
	a, err := NewOrderedAssigner(base)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]int, len(methods))
	for _, i := range order {
		if ids[i], err = a.Add(methods[i].Key, methods[i].Access); err != nil {
			return nil, 0, err
		}
	}
	return ids, a.HighWater(), nil
}

// TestOrderedAssignerIsAssignIDs: the ordered assigner gives every method
// the id AssignIDs gives it, and the same high-water mark, with no base
// and with bases that cover none, some or all methods, duplicates and
// access differences included.
func TestOrderedAssignerIsAssignIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var methods []Method
	for c := 0; c < 30; c++ {
		for m := 0; m < 20; m++ {
			k := MethodKey{Class: fmt.Sprintf("p/C%d$%d", c%6, c), Name: fmt.Sprintf("m%d", (m*31)%20), Desc: fmt.Sprintf("(I)%c", "VIJZ"[m%4])}
			methods = append(methods, Method{Key: k, Access: uint16(1 + m%3)})
		}
	}
	for i := 0; i < len(methods); i += 11 {
		d := methods[i]
		d.Access = 8
		methods = append(methods, d)
	}
	rng.Shuffle(len(methods), func(i, j int) { methods[i], methods[j] = methods[j], methods[i] })
	bases := map[string]*Map{"none": nil}
	for _, share := range []int{0, 3, 1} { // none, a third, all
		b := &Map{HighWater: 5000}
		seen := map[MethodKey]bool{}
		for i, m := range methods {
			if share != 0 && i%share == 0 && !seen[m.Key] {
				seen[m.Key] = true
				b.Entries = append(b.Entries, Entry{ID: 100 + i, Access: m.Access, Key: m.Key})
			}
		}
		bases[fmt.Sprintf("share-1/%d", share)] = b
	}
	for name, base := range bases {
		t.Run(name, func(t *testing.T) {
			want, wantHigh, err := AssignIDs(methods, base)
			require.NoError(t, err)
			got, gotHigh, err := orderedIDs(methods, base)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, wantHigh, gotHigh)
		})
	}
}

// TestOrderedAssignerRefuses: what AssignIDs would decide differently or
// reject is an error, so the caller can ask AssignIDs.
func TestOrderedAssignerRefuses(t *testing.T) {
	a, err := NewOrderedAssigner(nil)
	require.NoError(t, err)
	_, err = a.Add(MethodKey{"b/B", "x", "()V"}, 1)
	require.NoError(t, err)
	_, err = a.Add(MethodKey{"a/A", "x", "()V"}, 1)
	assert.True(t, errors.Is(err, ErrNotOrdered))

	a, _ = NewOrderedAssigner(nil)
	_, err = a.Add(DispatchKey, DispatchAccess)
	assert.Error(t, err)

	a, _ = NewOrderedAssigner(nil)
	_, err = a.Add(MethodKey{"a/A", "n", "(I)V"}, accNative)
	require.NoError(t, err)
	_, err = a.Add(MethodKey{"a/A", "n", "(J)V"}, accNative)
	assert.Error(t, err, "two natives share the line a.A n")

	a, _ = NewOrderedAssigner(&Map{HighWater: MaxID - 1})
	id, err := a.Add(MethodKey{"a/A", "x", "()V"}, 1)
	require.NoError(t, err)
	assert.Equal(t, MaxID, id)
	_, err = a.Add(MethodKey{"a/A", "y", "()V"}, 1)
	assert.True(t, errors.Is(err, ErrIDSpaceExhausted))
}
