package classfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInitialLocals: the implicit first frame, per parameter type, with
// and without a receiver.
func TestInitialLocals(t *testing.T) {
	obj, this := VType{Tag: VObject}, VType{Tag: VUninitializedThis}
	i, f, j, d := VType{Tag: VInteger}, VType{Tag: VFloat}, VType{Tag: VLong}, VType{Tag: VDouble}
	tests := []struct {
		desc               string
		static, uninitThis bool
		want               []VType
		ok                 bool
	}{
		{"()V", true, false, nil, true},
		{"()V", false, false, []VType{obj}, true},
		{"()V", false, true, []VType{this}, true},
		{"()V", true, true, nil, true},
		{"(BCISZFJD[JLa/B;[[I)V", true, false, []VType{i, i, i, i, i, f, j, d, obj, obj, obj}, true},
		{"(J)V", false, true, []VType{this, j}, true},
		{"(I", true, false, nil, false},
		{"(X)V", true, false, nil, false},
		{"I", true, false, nil, false},
		{"", true, false, nil, false},
	}
	for _, tt := range tests {
		got, err := InitialLocals(tt.desc, tt.static, tt.uninitThis)
		if !tt.ok {
			assert.Error(t, err, tt.desc)
			continue
		}
		require.NoError(t, err, tt.desc)
		assert.Equal(t, tt.want, got, "%s static=%v", tt.desc, tt.static)
	}
}

// TestExpandFrames applies each frame kind in turn to the state before it.
func TestExpandFrames(t *testing.T) {
	i, j, obj := VType{Tag: VInteger}, VType{Tag: VLong}, VType{Tag: VObject, Class: 7}
	initial := []VType{obj, i}
	frames := []Frame{
		{Kind: FrameSame, At: 1},
		{Kind: FrameSameLocals1, At: 2, Stack: []VType{j}},
		{Kind: FrameAppend, At: 3, Locals: []VType{j, i}},
		{Kind: FrameSameExtended, At: 4},
		{Kind: FrameChop, At: 5, Chop: 2},
		{Kind: FrameSameLocals1Extended, At: 6, Stack: []VType{obj}},
		{Kind: FrameFull, At: 7, Locals: []VType{i}, Stack: []VType{i, obj}},
		{Kind: FrameChop, At: 8, Chop: 1},
		{Kind: FrameAppend, At: 9, Locals: []VType{obj}},
	}
	got, err := ExpandFrames(initial, frames)
	require.NoError(t, err)
	want := []FullFrame{
		{At: 1, Locals: []VType{obj, i}},
		{At: 2, Locals: []VType{obj, i}, Stack: []VType{j}},
		{At: 3, Locals: []VType{obj, i, j, i}},
		{At: 4, Locals: []VType{obj, i, j, i}},
		{At: 5, Locals: []VType{obj, i}},
		{At: 6, Locals: []VType{obj, i}, Stack: []VType{obj}},
		{At: 7, Locals: []VType{i}, Stack: []VType{i, obj}},
		{At: 8, Locals: []VType{}},
		{At: 9, Locals: []VType{obj}},
	}
	require.Len(t, got, len(want))
	for k := range want {
		assert.Equal(t, want[k].At, got[k].At, "frame %d", k)
		assert.Equal(t, len(want[k].Locals), len(got[k].Locals), "frame %d locals", k)
		if len(want[k].Locals) > 0 {
			assert.Equal(t, want[k].Locals, got[k].Locals, "frame %d", k)
		}
		assert.Equal(t, want[k].Stack, got[k].Stack, "frame %d", k)
	}
	// An append after a chop does not write into the earlier frame's locals.
	assert.Equal(t, []VType{obj, i, j, i}, got[2].Locals)

	_, err = ExpandFrames(initial, []Frame{{Kind: FrameChop, Chop: 3}})
	assert.ErrorContains(t, err, "stack map frame 0 chops 3 locals of 2")
	_, err = ExpandFrames(initial, []Frame{{Kind: FrameChop, Chop: 2}, {Kind: FrameChop, Chop: 1}})
	assert.ErrorContains(t, err, "stack map frame 1 chops 1 locals of 0")
	_, err = ExpandFrames(initial, []Frame{{Kind: FrameFull + 1}})
	assert.ErrorContains(t, err, "unknown kind")
}

func TestVTypeSlots(t *testing.T) {
	for tag, want := range map[uint8]int{VTop: 1, VInteger: 1, VFloat: 1, VDouble: 2, VLong: 2, VNull: 1, VUninitializedThis: 1, VObject: 1, VUninitialized: 1} {
		assert.Equal(t, want, VType{Tag: tag}.Slots(), "tag %d", tag)
	}
}

// TestModifiedUTF8 pins the bytes of each encoding width and of the forms
// that differ from standard UTF-8 (NUL, supplementary characters), and
// what a malformed sequence decodes to.
func TestModifiedUTF8(t *testing.T) {
	tests := []struct {
		s   string
		enc []byte
	}{
		{"", []byte{}},
		{"abc", []byte("abc")},
		{"\x7f", []byte{0x7f}},
		{"\x00", []byte{0xc0, 0x80}},
		{"a\x00b", []byte{'a', 0xc0, 0x80, 'b'}},
		{"\u0080", []byte{0xc2, 0x80}},
		{"é", []byte{0xc3, 0xa9}},
		{"\u07ff", []byte{0xdf, 0xbf}},
		{"\u0800", []byte{0xe0, 0xa0, 0x80}},
		{"\uffff", []byte{0xef, 0xbf, 0xbf}},
		{"\U00010000", []byte{0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80}},
		{"x\U0010ffffy", []byte{'x', 0xed, 0xaf, 0xbf, 0xed, 0xbf, 0xbf, 'y'}},
	}
	for _, tt := range tests {
		enc := encodeModifiedUTF8(tt.s)
		assert.Equal(t, tt.enc, append([]byte{}, enc...), "encode %q", tt.s)
		assert.Equal(t, tt.s, decodeModifiedUTF8(tt.enc), "decode % x", tt.enc)
	}
	malformed := []struct {
		enc  []byte
		want string
	}{
		{[]byte{0xc3}, "\ufffd"},
		{[]byte{'a', 0xc3}, "a\ufffd"},
		{[]byte{0xe0, 0xa0}, "\ufffd\ufffd"},
		{[]byte{0xe0, 0xa0, 0x80, 0xe0}, "\u0800\ufffd"},
		{[]byte{0xf0, 'a'}, "\ufffda"},
		{[]byte{0x80}, "\ufffd"},
	}
	for _, tt := range malformed {
		assert.Equal(t, tt.want, decodeModifiedUTF8(tt.enc), "decode % x", tt.enc)
	}
}

// TestModifiedUTF8OfBadUTF8: a Go string that is not UTF-8 (a stray
// continuation byte) is written as U+FFFD, as a rune of it would be.
func TestModifiedUTF8OfBadUTF8(t *testing.T) {
	assert.Equal(t, []byte("a\xef\xbf\xbd"), encodeModifiedUTF8("a\x80"))
	assert.Equal(t, []byte("a\xef\xbf\xbd"), encodeModifiedUTF8("a\xff"))
}
