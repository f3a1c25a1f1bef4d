package jario

import "testing"

// TestBufferClasses: a buffer from GetBuffer has the length asked for and
// room for its class; one given back serves requests of the class it is
// Put in, never a larger one.
func TestBufferClasses(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 4096, 4097, 8192, 100_000, 1 << 20, maxPooledBuffer, maxPooledBuffer + 1} {
		b := GetBuffer(n)
		if len(b) != n {
			t.Fatalf("getBuffer(%d) has length %d", n, len(b))
		}
		if n <= maxPooledBuffer && cap(b) < minPooledBuffer<<bufferClass(n) {
			t.Errorf("getBuffer(%d) has room for %d, under its class's %d", n, cap(b), minPooledBuffer<<bufferClass(n))
		}
		PutBuffer(b)
	}
	for _, c := range []struct{ n, class int }{{1, 0}, {4096, 0}, {4097, 1}, {8192, 1}, {8193, 2}, {maxPooledBuffer, bufferClasses - 1}} {
		if got := bufferClass(c.n); got != c.class {
			t.Errorf("bufferClass(%d) = %d, want %d", c.n, got, c.class)
		}
	}
	// A buffer whose room is not a power of two serves the class below.
	PutBuffer(make([]byte, 0, 12<<10))
	for range 100 {
		if b := GetBuffer(16 << 10); cap(b) < 16<<10 {
			t.Fatalf("a request for 16 KB got a buffer of %d", cap(b))
		}
	}
}

// TestPutBufferKeepsOut: buffers too small or too large for the pool are
// not kept (a small one would be handed out for a request it cannot hold;
// a large one has no class); one of 12 KiB serves 8 KiB requests, not
// 32 KiB ones.
func TestPutBufferKeepsOut(t *testing.T) {
	for range 10 {
		PutBuffer(make([]byte, 10, 100))
		PutBuffer(make([]byte, 0, maxPooledBuffer+1))
		PutBuffer(make([]byte, 0, 8<<20))
		PutBuffer(nil)
		PutBuffer(make([]byte, 0, 12<<10))
		for _, n := range []int{minPooledBuffer, 32 << 10, maxPooledBuffer} {
			if b := GetBuffer(n); len(b) != n {
				t.Fatalf("GetBuffer(%d) has length %d", n, len(b))
			}
		}
	}
}
