package classfile

import "encoding/binary"

// reader is a bounds-checked big-endian cursor over a byte slice. The first
// read past the end sets err (a *FormatError naming the offset) and every
// later read returns zero, so parsers can read a whole structure and check
// the error once.
type reader struct {
	buf   []byte
	pos   int
	where string
	err   error
}

func (r *reader) fail(n int) {
	if r.err == nil {
		r.err = formatErr(r.where, r.pos, "truncated: need %d bytes, have %d", n, len(r.buf)-r.pos)
	}
	r.pos = len(r.buf)
}

func (r *reader) u1() uint8 {
	if r.pos+1 > len(r.buf) {
		r.fail(1)
		return 0
	}
	v := r.buf[r.pos]
	r.pos++
	return v
}

func (r *reader) u2() uint16 {
	if r.pos+2 > len(r.buf) {
		r.fail(2)
		return 0
	}
	v := binary.BigEndian.Uint16(r.buf[r.pos:])
	r.pos += 2
	return v
}

func (r *reader) u4() uint32 {
	if r.pos+4 > len(r.buf) {
		r.fail(4)
		return 0
	}
	v := binary.BigEndian.Uint32(r.buf[r.pos:])
	r.pos += 4
	return v
}

// bytes returns the next n bytes without copying.
func (r *reader) bytes(n int) []byte {
	if n < 0 || r.pos+n > len(r.buf) {
		r.fail(n)
		return nil
	}
	b := r.buf[r.pos : r.pos+n : r.pos+n]
	r.pos += n
	return b
}

func (r *reader) remaining() int { return len(r.buf) - r.pos }
