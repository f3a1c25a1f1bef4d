package classfile

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each read past the end says how many bytes it needed and had; the
// reads after it give 0 and keep the first error.
func TestReaderSaysWhatItNeeded(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(r *reader) uint64
		want string
	}{
		{"u1", func(r *reader) uint64 { return uint64(r.u1()) }, "class offset 0: truncated: need 1 bytes, have 0"},
		{"u2", func(r *reader) uint64 { return uint64(r.u2()) }, "class offset 0: truncated: need 2 bytes, have 0"},
		{"u4", func(r *reader) uint64 { return uint64(r.u4()) }, "class offset 0: truncated: need 4 bytes, have 0"},
	} {
		r := &reader{where: "class"}
		assert.Zero(t, tc.read(r), tc.name)
		assert.EqualError(t, r.err, tc.want, tc.name)
	}
	r := &reader{buf: []byte{1, 2, 3}, where: "class"}
	assert.Zero(t, r.u4())
	assert.EqualError(t, r.err, "class offset 0: truncated: need 4 bytes, have 3")
	assert.Zero(t, r.u2(), "after the first error")
	assert.Zero(t, r.u1())
	assert.EqualError(t, r.err, "class offset 0: truncated: need 4 bytes, have 3", "the first error is kept")
}

// The opcode scan names a wide cut after its opcode by the instruction,
// and a Code attribute's header errors name their offsets.
func TestOpcodeScanEdges(t *testing.T) {
	_, err := AppendOpcodes(nil, []byte{WIDE})
	assert.EqualError(t, err, "code offset 0: wide truncated")
	_, err = AppendOpcodes(nil, []byte{WIDE, ILOAD})
	assert.EqualError(t, err, "code offset 0: iload truncated")
	_, err = AppendOpcodes(nil, []byte{WIDE, ILOAD, 0})
	assert.EqualError(t, err, "code offset 0: iload truncated")
	ops, err := AppendOpcodes(nil, []byte{WIDE, ILOAD, 0, 1, RETURN})
	require.NoError(t, err)
	assert.Equal(t, []byte{ILOAD, RETURN}, ops)

	var fe *FormatError
	_, err = CodeBytes(make([]byte, 7))
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, FormatError{Where: "Code", Offset: 0, Msg: "truncated header"}, *fe)
	_, err = CodeBytes([]byte{0, 1, 0, 1, 0, 0, 0, 2, NOP})
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, FormatError{Where: "Code", Offset: 4, Msg: "code_length 2 exceeds the attribute"}, *fe)
	code, err := CodeBytes([]byte{0, 1, 0, 1, 0, 0, 0, 1, NOP, 9})
	require.NoError(t, err)
	assert.Equal(t, []byte{NOP}, code)
}

// U+007F is the last one-byte form in modified UTF-8, U+0080 the first
// two-byte one; NUL takes two bytes.
func TestModifiedUTF8AtTheOneByteEdge(t *testing.T) {
	for _, tc := range []struct {
		s   string
		enc []byte
	}{
		{"\x7f", []byte{0x7f}},
		{"a\x7fb", []byte{'a', 0x7f, 'b'}},
		{"\u0080", []byte{0xc2, 0x80}},
		{"\x00", []byte{0xc0, 0x80}},
		{"\x7f\u0080", []byte{0x7f, 0xc2, 0x80}},
	} {
		assert.Equal(t, tc.enc, encodeModifiedUTF8(tc.s), "%q", tc.s)
		assert.Equal(t, tc.s, decodeModifiedUTF8(tc.enc), "%q", tc.s)
	}
}

// Offsets refuses what layout refuses.
func TestOffsetsOfCodeThatCannotBeLaidOut(t *testing.T) {
	insns, labels, err := (&Code{Insns: []Insn{{Op: 0xCB}}}).Offsets()
	assert.EqualError(t, err, "instruction 0: invalid opcode 0xCB")
	assert.Nil(t, insns)
	assert.Nil(t, labels)
}
