package classfile

import "unsafe"

// slab hands out small zeroed slices carved from larger chunks, so that
// decoding a method costs one allocation per chunk instead of one per
// slice: a typical Code needs eight small slices, and the allocator and
// the GC's sweeping of that many tiny objects dominated decoding.
//
// Safety: every slice handed out is a disjoint region of its chunk with
// capacity equal to its length, and the slab never writes to a region once
// it is handed out. So a returned slice is owned by its caller alone: an
// append by the caller reallocates, and a later take (from any goroutine
// that gets this slab through a sync.Pool) hands out different memory. The
// cost is that one live slice keeps its whole chunk reachable.
type slab[T any] struct {
	free []T // the unused tail of the current chunk
}

// slabBytes is the size of a chunk: small enough that a retained slice
// pins little, large enough to serve dozens of methods. Requests larger
// than a quarter chunk get their own allocation, which bounds the tail
// wasted when a chunk is abandoned.
const slabBytes = 32 << 10

// chunkLen is the number of elements in a chunk.
func (s *slab[T]) chunkLen() int { return slabBytes / int(unsafe.Sizeof(*new(T))) }

// take returns n zeroed elements (nil for n == 0).
func (s *slab[T]) take(n int) []T {
	if n <= 0 {
		return nil
	}
	if n > len(s.free) {
		if n > s.chunkLen()/4 {
			return make([]T, n)
		}
		s.free = make([]T, s.chunkLen())
	}
	return s.commit(n)
}

// reserve returns max zeroed elements of room for the caller to fill when
// it knows only an upper bound of what it needs; the caller then keeps a
// prefix with commit, or zeroes what it wrote if it keeps nothing. It
// returns nil when max is too large for a chunk. This spares filling a
// scratch buffer and copying it.
func (s *slab[T]) reserve(max int) []T {
	if max > len(s.free) {
		if max > s.chunkLen()/4 {
			return nil
		}
		s.free = make([]T, s.chunkLen())
	}
	return s.free[:max]
}

// commit hands out the first n elements of the free tail.
func (s *slab[T]) commit(n int) []T {
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// one returns a pointer to a single zeroed element.
func (s *slab[T]) one() *T { return &s.take(1)[0] }
