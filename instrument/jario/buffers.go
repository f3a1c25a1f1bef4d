package jario

import (
	"math/bits"
	"sync"
)

// byteBuffers recycles the large short-lived buffers of a run: inflated
// entries, encoded classes, compressed bodies and raw entry bytes. A run
// over a large build passes several GB through such buffers; allocating
// each afresh made the garbage collector the largest single cost, and
// every fresh page costs a page fault (2.5 us on a 2-core VM; an edit build's
// delta run took 11,000 of them, about 28 ms of its 0.1 s).
//
// The pool is split by size, a power of two per pool: a buffer given back
// serves any later request of its class. One pool of mixed sizes handed
// out whichever buffer it held, too small for most requests, so most
// requests allocated anyway.
//
// A buffer taken with GetBuffer belongs to the caller until it is given
// back with PutBuffer; nothing may keep a slice of it after that.
var byteBuffers [bufferClasses]sync.Pool

const (
	minPooledBuffer = 4 << 10
	// maxPooledBuffer keeps rare huge entries (multi-MB resources) from
	// pinning memory in the pool.
	maxPooledBuffer = 4 << 20
	bufferClasses   = 11 // 4 KB .. 4 MB
)

// bufferClass returns the class of a buffer for n bytes: the least power
// of two at least n (and at least minPooledBuffer), as an index.
func bufferClass(n int) int {
	if n <= minPooledBuffer {
		return 0
	}
	return bits.Len(uint(n-1)) - bits.Len(uint(minPooledBuffer-1))
}

// GetBuffer returns a buffer of length n.
func GetBuffer(n int) []byte {
	if n > maxPooledBuffer {
		return make([]byte, n)
	}
	c := bufferClass(n)
	if p, ok := byteBuffers[c].Get().(*[]byte); ok {
		return (*p)[:n]
	}
	return make([]byte, n, minPooledBuffer<<c)
}

// PutBuffer gives b back to the pool; b must not be used afterwards. A
// buffer goes to the largest class it can serve.
func PutBuffer(b []byte) {
	if b == nil || cap(b) < minPooledBuffer || cap(b) > maxPooledBuffer {
		return
	}
	c := bufferClass(cap(b))
	if minPooledBuffer<<c > cap(b) {
		c-- // cap is not a power of two: it serves the class below
	}
	b = b[:0]
	byteBuffers[c].Put(&b)
}

// copyChunk is the buffer size of raw entry copies.
const copyChunk = 64 << 10
