package recording

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnlz: LZ4 blocks as the runtime's Lz writes them (literals, matches
// that overlap what they copy, lengths of 15 and more), and damage named.
func TestUnlz(t *testing.T) {
	long := bytes.Repeat([]byte("ab"), 200)
	for _, tc := range []struct {
		name string
		src  []byte
		want []byte
		err  string
	}{
		{"literals", []byte{0x50, 'h', 'e', 'l', 'l', 'o'}, []byte("hello"), ""},
		// "ab", then a match of 398 bytes at offset 2 (it copies what it writes), then 5 literals.
		{"overlapping match", append([]byte{0x2F, 'a', 'b', 2, 0, 255, 124}, append([]byte{0x50}, "xyzzy"...)...),
			append(append([]byte{}, long...), "xyzzy"...), ""},
		{"15 literals", append([]byte{0xF0, 0}, "0123456789abcde"...), []byte("0123456789abcde"), ""},
		{"offset zero", []byte{0x10, 'a', 0, 0, 0x00}, make([]byte, 6), "an offset of 0"},
		{"offset past", []byte{0x10, 'a', 2, 0, 0x00}, make([]byte, 6), "an offset of 2 at byte 2, 1 bytes decoded"},
		{"too long", []byte{0x60, 'a', 'b', 'c', 'd', 'e', 'f'}, make([]byte, 5), "6 literals at byte 1, past the end"},
		{"too short", []byte{0x20, 'a', 'b'}, make([]byte, 5), "2 bytes where the block says 5"},
		{"cut length", []byte{0xF0}, make([]byte, 20), "a length cut at byte 1"},
		{"cut offset", []byte{0x10, 'a', 1}, make([]byte, 9), "an offset cut at byte 2"},
		{"14 literals", append([]byte{0xE0}, "0123456789abcd"...), []byte("0123456789abcd"), ""},
		{"270 literals", append([]byte{0xF0, 255, 0}, bytes.Repeat([]byte("z"), 270)...), bytes.Repeat([]byte("z"), 270), ""},
		{"a length past the block", []byte{0xF0, 255, 0}, make([]byte, 100), "a length past the block's 100 bytes"},
		{"literals past the source", []byte{0x60, 'a', 'b', 'c'}, make([]byte, 10), "6 literals at byte 1, past the end"},
		// "abcd", then a match of 4 at offset 4 that ends the block.
		{"a match to the block's end", []byte{0x40, 'a', 'b', 'c', 'd', 4, 0}, []byte("abcdabcd"), ""},
		{"a match past the block's end", []byte{0x40, 'a', 'b', 'c', 'd', 4, 0}, make([]byte, 7), "a match of 4 bytes at byte 7, past the block's end"},
		{"a match's length cut", []byte{0x1F, 'a', 1, 0}, make([]byte, 30), "a length cut at byte 4"},
		// 'a', a match of 4 at offset 1, then 3 literals where 2 fit.
		{"literals past the block after a match", []byte{0x10, 'a', 1, 0, 0x30, 'x', 'y', 'z'}, make([]byte, 7), "3 literals at byte 5, past the end"},
		// 300 literals, then a match of 4 at offset 300: the offset's high byte.
		{"an offset past 255", append(append([]byte{0xF0, 255, 30}, lzRun(300)...), 0x2C, 0x01),
			append(lzRun(300), lzRun(4)...), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]byte, len(tc.want))
			err := unlz(tc.src, dst)
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, dst)
		})
	}
}

// lzRun is n bytes counting up from 0, mod 251.
func lzRun(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}
