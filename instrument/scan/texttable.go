package scan

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"unsafe"
)

// TextTable holds each method name and descriptor of a run once; a
// method's record keeps their indexes. A build repeats few: Debian's 587
// jars and gradle-api have 1.29 million methods but a few hundred
// thousand distinct names and descriptors, held from the scan to the maps.
//
// The texts are copied back to back into arena chunks and found through
// an open-addressing table of indexes, so a text costs its bytes, a
// string header and a few bytes of table, where a map of strings took
// three times that.
//
// Interning takes a lock; reading does not: the headers live in chunks
// that never move, published through atomic pointers, and arena bytes are
// never written again once a header points at them, so records can be
// turned into keys from any goroutine while the scan still interns.
type TextTable struct {
	mu    sync.Mutex
	seed  maphash.Seed
	slots []uint32 // 1 + the index of a text, 0 for an empty slot
	n     uint32
	arena []byte // the free end of the current arena chunk
	heads [textChunks]atomic.Pointer[[textChunk]string]
}

const (
	textChunk  = 1 << 12
	textChunks = 1 << 12 // room for 16 million distinct texts
	arenaChunk = 256 << 10
)

func NewTextTable() *TextTable {
	return &TextTable{seed: maphash.MakeSeed(), slots: make([]uint32, 1<<12)}
}

// intern returns the index of s, adding it when new; false when the table
// is full.
func (t *TextTable) intern(s string) (uint32, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	mask := uint64(len(t.slots) - 1)
	at := maphash.String(t.seed, s) & mask
	for ; t.slots[at] != 0; at = (at + 1) & mask {
		if i := t.slots[at] - 1; t.Str(i) == s {
			return i, true
		}
	}
	i := t.n
	if i >= textChunk*textChunks {
		return 0, false
	}
	head := t.heads[i/textChunk].Load()
	if head == nil {
		head = new([textChunk]string)
		t.heads[i/textChunk].Store(head)
	}
	head[i%textChunk] = t.copyText(s)
	t.slots[at] = i + 1
	t.n++
	if uint64(t.n)*2 > uint64(len(t.slots)) {
		t.grow()
	}
	return i, true
}

// InternBytes is intern of b's text. intern keeps a copy, never s itself,
// so b is read in place: a record decoded from a cache index interns every
// name and descriptor of its class.
func (t *TextTable) InternBytes(b []byte) (uint32, bool) {
	if len(b) == 0 {
		return t.intern("")
	}
	return t.intern(unsafe.String(&b[0], len(b)))
}

// copyText copies s into the arena and returns the copy.
func (t *TextTable) copyText(s string) string {
	if s == "" {
		return ""
	}
	if len(t.arena) < len(s) {
		t.arena = make([]byte, max(arenaChunk, len(s)))
	}
	b := t.arena[:len(s):len(s)]
	copy(b, s)
	t.arena = t.arena[len(s):]
	return unsafe.String(&b[0], len(b))
}

// grow doubles the slots and places every index again.
func (t *TextTable) grow() {
	slots := make([]uint32, 2*len(t.slots))
	mask := uint64(len(slots) - 1)
	for i := range t.n {
		at := maphash.String(t.seed, t.Str(i)) & mask
		for slots[at] != 0 {
			at = (at + 1) & mask
		}
		slots[at] = i + 1
	}
	t.slots = slots
}

// Str returns the text at index i.
func (t *TextTable) Str(i uint32) string { return t.heads[i/textChunk].Load()[i%textChunk] }
