package methodmap

import "hash/maphash"

// keyIndex maps method keys to int32 values through a 64-bit hash of the
// key. Its table holds 12-byte slots instead of the 56 of a map keyed by
// the three strings, which matters at hundreds of thousands of methods;
// keyOf gives back the key a value stands for, so every hit is checked
// against the real key, and the rare key whose hash another key already
// holds goes to a small exact map.
type keyIndex struct {
	seed   maphash.Seed
	byHash map[uint64]int32
	exact  map[MethodKey]int32
	keyOf  func(int32) MethodKey
}

func newKeyIndex(n int, keyOf func(int32) MethodKey) *keyIndex {
	return &keyIndex{seed: maphash.MakeSeed(), byHash: make(map[uint64]int32, n), keyOf: keyOf}
}

// hash mixes the hashes of the three strings (each one call into the
// runtime's string hash; maphash.Hash's buffered writes cost more).
func (x *keyIndex) hash(k MethodKey) uint64 {
	// Multiplying between the parts keeps their order in the hash.
	h := maphash.String(x.seed, k.Class) * 0x9E3779B97F4A7C15
	h = (h ^ maphash.String(x.seed, k.Name)) * 0xC2B2AE3D27D4EB4F
	return h ^ maphash.String(x.seed, k.Desc)
}

func (x *keyIndex) get(k MethodKey) (int32, bool) {
	if v, ok := x.exact[k]; ok {
		return v, true
	}
	v, ok := x.byHash[x.hash(k)]
	if ok && x.keyOf(v) == k {
		return v, true
	}
	return 0, false
}

// put sets k's value; a key already present keeps its slot.
func (x *keyIndex) put(k MethodKey, v int32) {
	h := x.hash(k)
	if old, ok := x.byHash[h]; ok && x.keyOf(old) != k {
		if x.exact == nil {
			x.exact = map[MethodKey]int32{}
		}
		x.exact[k] = v
		return
	}
	x.byHash[h] = v
}
