package traceout

import (
	"fmt"
	"io"
	"os"
	"slices"
)

// spill is a temporary file the page's data goes to while the decode
// runs, so that the writer holds little of it: appended to, read back at
// the end, removed on close. The first error sticks; every later use
// returns it.
type spill struct {
	f    *os.File
	size int64
	err  error
}

// spillRef is a piece of the spill: where it starts, how long it is.
type spillRef struct {
	at   int64
	size int
}

// add appends b and says where it went.
func (s *spill) add(b []byte) spillRef {
	if s.err == nil && s.f == nil {
		s.f, s.err = os.CreateTemp("", "tracebeat-page-*.spill")
	}
	if s.err == nil {
		_, s.err = s.f.Write(b)
	}
	ref := spillRef{at: s.size, size: len(b)}
	s.size += int64(len(b))
	return ref
}

// read gives the bytes of ref, in buf when it is large enough.
func (s *spill) read(ref spillRef, buf []byte) ([]byte, error) {
	if s.err != nil {
		return nil, fmt.Errorf("the page's spill file: %w", s.err)
	}
	buf = slices.Grow(buf[:0], ref.size)[:ref.size]
	if _, err := s.f.ReadAt(buf, ref.at); err != nil && err != io.EOF {
		return nil, fmt.Errorf("the page's spill file: %w", err)
	}
	return buf, nil
}

// close removes the file.
func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
		s.f = nil
	}
}
