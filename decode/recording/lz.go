package recording

import "fmt"

// unlz decodes an LZ4 block (the runtime's Lz) into dst, which must come
// out exactly full: sequences of a token (literal count in its high four
// bits, match length less 4 in its low four, 15 in either followed by
// bytes that add to it), the literals, a 16-bit little-endian offset back
// into what was decoded; the last sequence has literals only.
func unlz(src, dst []byte) error {
	s, d := 0, 0
	count := func(n int) (int, error) {
		if n < 15 {
			return n, nil
		}
		for {
			if s >= len(src) {
				return 0, fmt.Errorf("a length cut at byte %d", s)
			}
			b := src[s]
			s++
			n += int(b)
			if n > len(dst) {
				return 0, fmt.Errorf("a length past the block's %d bytes", len(dst))
			}
			if b != 255 {
				return n, nil
			}
		}
	}
	for s < len(src) {
		token := src[s]
		s++
		lit, err := count(int(token >> 4))
		if err != nil {
			return err
		}
		if lit > len(src)-s || lit > len(dst)-d {
			return fmt.Errorf("%d literals at byte %d, past the end", lit, s)
		}
		copy(dst[d:], src[s:s+lit])
		s += lit
		d += lit
		if s == len(src) {
			break // the last sequence: literals only
		}
		if len(src)-s < 2 {
			return fmt.Errorf("an offset cut at byte %d", s)
		}
		off := int(src[s]) | int(src[s+1])<<8
		s += 2
		if off == 0 || off > d {
			return fmt.Errorf("an offset of %d at byte %d, %d bytes decoded", off, s-2, d)
		}
		m, err := count(int(token & 15))
		if err != nil {
			return err
		}
		m += 4
		if m > len(dst)-d {
			return fmt.Errorf("a match of %d bytes at byte %d, past the block's end", m, s)
		}
		for i := 0; i < m; i++ { // may overlap what it copies: byte by byte
			dst[d+i] = dst[d-off+i]
		}
		d += m
	}
	if d != len(dst) {
		return fmt.Errorf("%d bytes where the block says %d", d, len(dst))
	}
	return nil
}
