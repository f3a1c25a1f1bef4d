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
