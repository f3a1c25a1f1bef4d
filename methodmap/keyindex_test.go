package methodmap

import "testing"

// TestKeyIndexCollision forces two keys onto one hash: both must keep
// their own values, and a key never put must not be found.
func TestKeyIndexCollision(t *testing.T) {
	keys := []MethodKey{key("a/A", "m", "()V"), key("a/A", "n", "()V"), key("b/B", "m", "()V")}
	x := newKeyIndex(4, func(i int32) MethodKey { return keys[i] })
	x.put(keys[0], 0)
	x.byHash[x.hash(keys[1])] = 0 // keys[1]'s hash now points at keys[0]
	if _, ok := x.get(keys[1]); ok {
		t.Fatal("a hit on another key's slot was taken for the key")
	}
	x.put(keys[1], 1)
	for i, k := range keys[:2] {
		if v, ok := x.get(k); !ok || v != int32(i) {
			t.Errorf("get(%v) = %d, %v; want %d", k, v, ok, i)
		}
	}
	if _, ok := x.get(keys[2]); ok {
		t.Errorf("get(%v) found a key never put", keys[2])
	}
}
