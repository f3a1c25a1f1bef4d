package instrument

import "sync"

// byteBuffers recycles the large short-lived buffers of a run: inflated
// entries, encoded classes, compressed bodies and raw entry bytes. A run
// over a large build passes several GB through such buffers; allocating
// each afresh made the garbage collector the largest single cost.
//
// A buffer taken with getBuffer belongs to the caller until it is given
// back with putBuffer; nothing may keep a slice of it after that.
var byteBuffers sync.Pool

// maxPooledBuffer keeps rare huge entries (multi-MB resources) from
// pinning memory in the pool.
const maxPooledBuffer = 4 << 20

// getBuffer returns a buffer of length n.
func getBuffer(n int) []byte {
	if p, ok := byteBuffers.Get().(*[]byte); ok {
		if cap(*p) >= n {
			return (*p)[:n]
		}
		byteBuffers.Put(p)
	}
	return make([]byte, n, max(n, 4096))
}

// putBuffer gives b back to the pool; b must not be used afterwards.
func putBuffer(b []byte) {
	if b == nil || cap(b) > maxPooledBuffer {
		return
	}
	b = b[:0]
	byteBuffers.Put(&b)
}
