package classfile_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// codeArray returns the code array of an encoded Code body.
func codeArray(t *testing.T, body []byte) []byte {
	t.Helper()
	raw, err := cf.CodeBytes(body)
	require.NoError(t, err)
	return raw
}

// tail returns what follows the code array: the exception table and the
// attributes.
func tail(t *testing.T, body []byte) []byte {
	t.Helper()
	return body[8+len(codeArray(t, body)):]
}

// TestEncodeOperandForms pins the bytes of each operand form at the
// boundaries where the encoder picks a longer one (JVMS §6.5).
func TestEncodeOperandForms(t *testing.T) {
	tests := []struct {
		name string
		in   cf.Insn
		want []byte
	}{
		{"iload 255", cf.Insn{Op: cf.ILOAD, A: 255}, []byte{0x15, 0xff}},
		{"iload 256", cf.Insn{Op: cf.ILOAD, A: 256}, []byte{0xc4, 0x15, 0x01, 0x00}},
		{"wide iload 3", cf.Insn{Op: cf.ILOAD, A: 3, Wide: true}, []byte{0xc4, 0x15, 0x00, 0x03}},
		{"astore 300", cf.Insn{Op: cf.ASTORE, A: 300}, []byte{0xc4, 0x3a, 0x01, 0x2c}},
		{"ldc 255", cf.Insn{Op: cf.LDC, A: 255}, []byte{0x12, 0xff}},
		{"ldc 256", cf.Insn{Op: cf.LDC, A: 256}, []byte{0x13, 0x01, 0x00}},
		{"ldc_w 3", cf.Insn{Op: cf.LDC_W, A: 3}, []byte{0x13, 0x00, 0x03}},
		{"iinc 1 127", cf.Insn{Op: cf.IINC, A: 1, B: 127}, []byte{0x84, 0x01, 0x7f}},
		{"iinc 1 -128", cf.Insn{Op: cf.IINC, A: 1, B: -128}, []byte{0x84, 0x01, 0x80}},
		{"iinc 1 128", cf.Insn{Op: cf.IINC, A: 1, B: 128}, []byte{0xc4, 0x84, 0x00, 0x01, 0x00, 0x80}},
		{"iinc 1 -129", cf.Insn{Op: cf.IINC, A: 1, B: -129}, []byte{0xc4, 0x84, 0x00, 0x01, 0xff, 0x7f}},
		{"iinc 255 1", cf.Insn{Op: cf.IINC, A: 255, B: 1}, []byte{0x84, 0xff, 0x01}},
		{"iinc 256 1", cf.Insn{Op: cf.IINC, A: 256, B: 1}, []byte{0xc4, 0x84, 0x01, 0x00, 0x00, 0x01}},
		{"wide iinc 1 1", cf.Insn{Op: cf.IINC, A: 1, B: 1, Wide: true}, []byte{0xc4, 0x84, 0x00, 0x01, 0x00, 0x01}},
		{"bipush -1", cf.Insn{Op: cf.BIPUSH, A: -1}, []byte{0x10, 0xff}},
		{"sipush -2", cf.Insn{Op: cf.SIPUSH, A: -2}, []byte{0x11, 0xff, 0xfe}},
		{"newarray int", cf.Insn{Op: cf.NEWARRAY, A: 10}, []byte{0xbc, 0x0a}},
		{"getfield", cf.Insn{Op: cf.GETFIELD, A: 0x1234}, []byte{0xb4, 0x12, 0x34}},
		{"invokeinterface", cf.Insn{Op: cf.INVOKEINTERFACE, A: 5, B: 2}, []byte{0xb9, 0x00, 0x05, 0x02, 0x00}},
		{"invokedynamic", cf.Insn{Op: cf.INVOKEDYNAMIC, A: 7}, []byte{0xba, 0x00, 0x07, 0x00, 0x00}},
		{"multianewarray", cf.Insn{Op: cf.MULTIANEWARRAY, A: 3, B: 2}, []byte{0xc5, 0x00, 0x03, 0x02}},
		{"ret 4", cf.Insn{Op: cf.RET, A: 4}, []byte{0xa9, 0x04}},
	}
	for _, tt := range tests {
		c := &cf.Code{Insns: []cf.Insn{tt.in, {Op: cf.RETURN}}}
		body, err := c.Encode()
		require.NoError(t, err, tt.name)
		assert.Equal(t, append(append([]byte{}, tt.want...), 0xb1), codeArray(t, body), tt.name)
		// Every instruction alone, and after a one-byte one (other room
		// left in the buffer), encodes the same.
		c = &cf.Code{Insns: []cf.Insn{{Op: cf.NOP}, tt.in}}
		body, err = c.Encode()
		require.NoError(t, err, tt.name)
		assert.Equal(t, append([]byte{0}, tt.want...), codeArray(t, body), tt.name)
		ins, _, err := c.Offsets()
		require.NoError(t, err)
		assert.Equal(t, []int{0, 1}, ins)
	}
}

// TestEncodeBranchesAndSwitches pins branch deltas (forward, backward,
// four-byte) and the padding of a switch at each offset modulo 4.
func TestEncodeBranchesAndSwitches(t *testing.T) {
	c := &cf.Code{}
	top, end := c.NewLabel(), c.NewLabel()
	c.Insns = []cf.Insn{
		{Op: cf.NOP, Mark: top},
		{Op: cf.IFEQ, Target: end},   // at 1: +11
		{Op: cf.GOTO, Target: top},   // at 4: -4
		{Op: cf.GOTO_W, Target: end}, // at 7: +5
		{Op: cf.RETURN, Mark: end},   // at 12
	}
	body, err := c.Encode()
	require.NoError(t, err)
	assert.Equal(t, []byte{0x00, 0x99, 0x00, 0x0b, 0xa7, 0xff, 0xfc, 0xc8, 0x00, 0x00, 0x00, 0x05, 0xb1}, codeArray(t, body))

	for pad := range 4 {
		c := &cf.Code{}
		d, k := c.NewLabel(), c.NewLabel()
		for range (3 - pad + 4) % 4 { // nops before the switch: its padding is pad
			c.Insns = append(c.Insns, cf.Insn{Op: cf.NOP})
		}
		at := len(c.Insns)
		c.Switches = []cf.Switch{{Default: d, Low: -1, Targets: []cf.Label{k, d}}, {Default: k, Keys: []int32{-5, 9}, Targets: []cf.Label{d, k}}}
		c.Insns = append(c.Insns, cf.Insn{Op: cf.TABLESWITCH, A: 0}, cf.Insn{Op: cf.LOOKUPSWITCH, A: 1},
			cf.Insn{Op: cf.RETURN, Mark: d}, cf.Insn{Op: cf.RETURN, Mark: k})
		body, err := c.Encode()
		require.NoError(t, err)
		raw := codeArray(t, body)
		ins, labels, err := c.Offsets()
		require.NoError(t, err)
		off := ins[at]
		require.Equal(t, at, off)
		require.Equal(t, []byte{0xaa}, raw[off:off+1])
		assert.Equal(t, make([]byte, pad), raw[off+1:off+1+pad], "padding at offset %d", off)
		p := off + 1 + pad
		word := func(i int) int32 { return int32(binary.BigEndian.Uint32(raw[p+4*i:])) }
		dOff, kOff := int32(labels[d]-off), int32(labels[k]-off)
		assert.Equal(t, []int32{dOff, -1, 0, kOff, dOff}, []int32{word(0), word(1), word(2), word(3), word(4)})
		look := ins[at+1]
		require.Equal(t, p+20, look)
		require.Equal(t, byte(0xab), raw[look])
		p = look + 1 + (3-look%4+4)%4
		dOff, kOff = int32(labels[d]-look), int32(labels[k]-look)
		assert.Equal(t, []int32{kOff, 2, -5, dOff, 9, kOff}, []int32{word(0), word(1), word(2), word(3), word(4), word(5)})
		assert.Equal(t, labels[d], ins[at+2])
		assert.Equal(t, labels[k], ins[at+3])
		assert.Equal(t, len(raw)-1, labels[k])
	}
}

// TestEncodeTables pins the exception table and the attributes whose
// entries hold offsets.
func TestEncodeTables(t *testing.T) {
	c := &cf.Code{MaxStack: 0x0102, MaxLocals: 0x0304}
	a, b, h := c.NewLabel(), c.NewLabel(), c.NewLabel()
	unused := c.NewLabel()
	c.End = c.NewLabel()
	c.Insns = []cf.Insn{{Op: cf.NOP, Mark: a}, {Op: cf.SIPUSH, A: 1, Mark: b}, {Op: cf.RETURN}, {Op: cf.ATHROW, Mark: h}}
	c.Handlers = []cf.Handler{{Start: a, End: h, Handler: h, CatchType: 0x0506}}
	c.Attributes = []cf.CodeAttribute{
		{Kind: cf.AttrLineNumberTable, Name: 1, Lines: []cf.LineNumber{{Start: a, Line: 10}, {Start: b, Line: 11}}},
		{Kind: cf.AttrLocalVariableTable, Name: 2, Locals: []cf.LocalVariable{{Start: b, End: c.End, Name: 3, Descriptor: 4, Index: 5}}},
		{Kind: cf.AttrRaw, Name: 6, Raw: []byte{9, 9}},
		{Kind: cf.AttrStackMapTable, Name: 7, Frames: []cf.Frame{
			{Kind: cf.FrameSame, At: b},
			{Kind: cf.FrameSameLocals1, At: h, Stack: []cf.VType{{Tag: cf.VUninitialized, New: b}}},
		}},
	}
	body, err := c.Encode()
	require.NoError(t, err)
	want := []byte{
		0x01, 0x02, 0x03, 0x04, 0, 0, 0, 6,
		0x00, 0x11, 0x00, 0x01, 0xb1, 0xbf,
		0, 1, 0, 0, 0, 5, 0, 5, 0x05, 0x06, // handler [0, 5) -> 5
		0, 4, // attributes
		0, 1, 0, 0, 0, 10, 0, 2, 0, 0, 0, 10, 0, 1, 0, 11,
		0, 2, 0, 0, 0, 12, 0, 1, 0, 1, 0, 5, 0, 3, 0, 4, 0, 5,
		0, 6, 0, 0, 0, 2, 9, 9,
		0, 7, 0, 0, 0, 7, 0, 2, 1, 64 + 3, 8, 0, 1, // same at 1, same_locals_1 at 1+1+3
	}
	assert.Equal(t, want, body)
	prefix := []byte{0xaa, 0xbb}
	appended, err := c.AppendTo(prefix)
	require.NoError(t, err)
	assert.Equal(t, append(prefix, want...), appended)
	_, labels, err := c.Offsets()
	require.NoError(t, err)
	assert.Equal(t, -1, labels[unused])
	assert.Equal(t, -1, labels[0])
	assert.Equal(t, 6, labels[c.End])
}

// TestEncodeEmptyTables: a LineNumberTable, a LocalVariableTable and a
// StackMapTable with no entries are legal (javac writes none, other
// compilers may) and come out as a count of zero.
func TestEncodeEmptyTables(t *testing.T) {
	c := &cf.Code{MaxStack: 1, MaxLocals: 1}
	c.End = c.NewLabel()
	c.Insns = []cf.Insn{{Op: cf.RETURN}}
	c.Attributes = []cf.CodeAttribute{
		{Kind: cf.AttrLineNumberTable, Name: 1},
		{Kind: cf.AttrLocalVariableTable, Name: 2},
		{Kind: cf.AttrStackMapTable, Name: 3},
	}
	body, err := c.Encode()
	require.NoError(t, err)
	assert.Equal(t, []byte{0, 3, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0}, tail(t, body)[2:])
}

// TestEncodeFrameForms pins each frame form at the offset deltas where
// the short forms end.
func TestEncodeFrameForms(t *testing.T) {
	i := cf.VType{Tag: cf.VInteger}
	obj := cf.VType{Tag: cf.VObject, Class: 0x0708}
	tests := []struct {
		name  string
		delta int // of the frame's offset from the start (the first frame's delta is its offset)
		frame cf.Frame
		want  []byte
	}{
		{"same 0", 0, cf.Frame{Kind: cf.FrameSame}, []byte{0}},
		{"same 63", 63, cf.Frame{Kind: cf.FrameSame}, []byte{63}},
		{"same 64", 64, cf.Frame{Kind: cf.FrameSame}, []byte{251, 0, 64}},
		{"same extended 5", 5, cf.Frame{Kind: cf.FrameSameExtended}, []byte{251, 0, 5}},
		{"same locals 1 63", 63, cf.Frame{Kind: cf.FrameSameLocals1, Stack: []cf.VType{i}}, []byte{127, 1}},
		{"same locals 1 64", 64, cf.Frame{Kind: cf.FrameSameLocals1, Stack: []cf.VType{i}}, []byte{247, 0, 64, 1}},
		{"same locals 1 extended 2", 2, cf.Frame{Kind: cf.FrameSameLocals1Extended, Stack: []cf.VType{obj}}, []byte{247, 0, 2, 7, 7, 8}},
		{"chop 1", 1, cf.Frame{Kind: cf.FrameChop, Chop: 1}, []byte{250, 0, 1}},
		{"chop 3", 1, cf.Frame{Kind: cf.FrameChop, Chop: 3}, []byte{248, 0, 1}},
		{"append 1", 1, cf.Frame{Kind: cf.FrameAppend, Locals: []cf.VType{i}}, []byte{252, 0, 1, 1}},
		{"append 3", 1, cf.Frame{Kind: cf.FrameAppend, Locals: []cf.VType{i, obj, i}}, []byte{254, 0, 1, 1, 7, 7, 8, 1}},
		{"full", 2, cf.Frame{Kind: cf.FrameFull, Locals: []cf.VType{obj}, Stack: []cf.VType{i, i}}, []byte{255, 0, 2, 0, 1, 7, 7, 8, 0, 2, 1, 1}},
	}
	for _, tt := range tests {
		c := &cf.Code{}
		l := c.NewLabel()
		for range tt.delta {
			c.Insns = append(c.Insns, cf.Insn{Op: cf.NOP})
		}
		c.Insns = append(c.Insns, cf.Insn{Op: cf.RETURN, Mark: l})
		tt.frame.At = l
		c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Name: 1, Frames: []cf.Frame{tt.frame}}}
		body, err := c.Encode()
		require.NoError(t, err, tt.name)
		want := append([]byte{0, 0, 0, 1, 0, 1, 0, 0, 0, byte(2 + len(tt.want)), 0, 1}, tt.want...)
		assert.Equal(t, want, tail(t, body), tt.name)
	}
	// The second frame's delta is counted from the first's offset plus one.
	c := &cf.Code{}
	l1, l2 := c.NewLabel(), c.NewLabel()
	c.Insns = []cf.Insn{{Op: cf.NOP, Mark: l1}, {Op: cf.NOP}, {Op: cf.RETURN, Mark: l2}}
	c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{Kind: cf.FrameSame, At: l1}, {Kind: cf.FrameSame, At: l2}}}}
	body, err := c.Encode()
	require.NoError(t, err)
	assert.Equal(t, []byte{0, 2, 0, 1}, tail(t, body)[10:])
}

// TestEncodeRefuses lists the code the encoder will not write, with why.
func TestEncodeRefuses(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *cf.Code)
		want  string
	}{
		{"empty code", func(c *cf.Code) {}, "code is empty"},
		{"a label placed twice", func(c *cf.Code) {
			l := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.NOP, Mark: l}, {Op: cf.RETURN, Mark: l}}
		}, "instruction 1: label 1 placed twice or never allocated"},
		{"a label never allocated", func(c *cf.Code) {
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: 1}}
		}, "instruction 0: label 1 placed twice or never allocated"},
		{"the end label placed on an instruction", func(c *cf.Code) {
			c.End = c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: c.End}}
		}, "end label 1 placed twice or never allocated"},
		{"an end label never allocated", func(c *cf.Code) {
			c.End = 1
			c.Insns = []cf.Insn{{Op: cf.RETURN}}
		}, "end label 1 placed twice or never allocated"},
		{"an invalid opcode", func(c *cf.Code) { c.Insns = []cf.Insn{{Op: 0xcb}} }, "instruction 0: invalid opcode 0xCB"},
		{"a wide opcode", func(c *cf.Code) { c.Insns = []cf.Insn{{Op: cf.WIDE}} }, "instruction 0: invalid opcode 0xC4"},
		{"a switch index past the table", func(c *cf.Code) {
			c.Insns = []cf.Insn{{Op: cf.TABLESWITCH, A: 0}}
		}, "instruction 0: switch index 0 out of range"},
		{"a negative switch index", func(c *cf.Code) {
			c.Switches = []cf.Switch{{}}
			c.Insns = []cf.Insn{{Op: cf.LOOKUPSWITCH, A: -1}}
		}, "instruction 0: switch index -1 out of range"},
		{"lookupswitch keys and targets", func(c *cf.Code) {
			l := c.NewLabel()
			c.Switches = []cf.Switch{{Default: l, Keys: []int32{1}, Targets: []cf.Label{l, l}}}
			c.Insns = []cf.Insn{{Op: cf.LOOKUPSWITCH, Mark: l}}
		}, "lookupswitch at offset 0: 1 keys, 2 targets"},
		{"a branch to an unplaced label", func(c *cf.Code) {
			c.Insns = []cf.Insn{{Op: cf.GOTO, Target: c.NewLabel()}}
		}, "label 1 is used but not placed"},
		{"a branch to no label", func(c *cf.Code) {
			c.Insns = []cf.Insn{{Op: cf.GOTO}}
		}, "label 0 is used but not placed"},
		{"a branch to a label never allocated", func(c *cf.Code) {
			c.Insns = []cf.Insn{{Op: cf.GOTO, Target: 5}}
		}, "label 5 is used but not placed"},
		{"a branch to the label after the last allocated", func(c *cf.Code) {
			c.Insns = []cf.Insn{{Op: cf.GOTO, Target: c.NewLabel() + 1}}
		}, "label 2 is used but not placed"},
		{"an empty exception range", func(c *cf.Code) {
			l := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: l}}
			c.Handlers = []cf.Handler{{Start: l, End: l, Handler: l}}
		}, "exception range [0, 0) is empty"},
		{"a handler at an unplaced label", func(c *cf.Code) {
			l := c.NewLabel()
			c.End = c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: l}}
			c.Handlers = []cf.Handler{{Start: l, End: c.End, Handler: c.NewLabel()}}
		}, "label 3 is used but not placed"},
		{"a line at an unplaced label", func(c *cf.Code) {
			c.Insns = []cf.Insn{{Op: cf.RETURN}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrLineNumberTable, Lines: []cf.LineNumber{{Start: c.NewLabel()}}}}
		}, "label 1 is used but not placed"},
		{"frames out of order", func(c *cf.Code) {
			a, b := c.NewLabel(), c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.NOP, Mark: a}, {Op: cf.RETURN, Mark: b}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{At: b}, {At: a}}}}
		}, "stack map frame 1 at offset 0 does not follow the previous frame at 1"},
		{"two frames at one offset", func(c *cf.Code) {
			a := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: a}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{At: a}, {At: a}}}}
		}, "stack map frame 1 at offset 0 does not follow the previous frame at 0"},
		{"same_locals_1 without a stack item", func(c *cf.Code) {
			a := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: a}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{Kind: cf.FrameSameLocals1, At: a}}}}
		}, "same_locals_1_stack_item needs one stack item, has 0"},
		{"chop 0", func(c *cf.Code) {
			a := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: a}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{Kind: cf.FrameChop, At: a}}}}
		}, "chop of 0 locals"},
		{"chop 4", func(c *cf.Code) {
			a := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: a}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{Kind: cf.FrameChop, Chop: 4, At: a}}}}
		}, "chop of 4 locals"},
		{"append 0", func(c *cf.Code) {
			a := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: a}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{Kind: cf.FrameAppend, At: a}}}}
		}, "append of 0 locals"},
		{"append 4", func(c *cf.Code) {
			a := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: a}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{Kind: cf.FrameAppend, At: a, Locals: make([]cf.VType, 4)}}}}
		}, "append of 4 locals"},
		{"a frame of unknown kind", func(c *cf.Code) {
			a := c.NewLabel()
			c.Insns = []cf.Insn{{Op: cf.RETURN, Mark: a}}
			c.Attributes = []cf.CodeAttribute{{Kind: cf.AttrStackMapTable, Frames: []cf.Frame{{Kind: cf.FrameFull + 1, At: a}}}}
		}, "unknown kind"},
	}
	for _, tt := range tests {
		c := &cf.Code{}
		tt.build(c)
		_, err := c.Encode()
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
		_, err = c.AppendTo(nil)
		assert.Error(t, err, tt.name)
	}
}

// TestEncodeDecodeOperands: what the encoder writes, the decoder reads
// back as the same instructions.
func TestEncodeDecodeOperands(t *testing.T) {
	var pool cf.ConstantPool
	c := &cf.Code{MaxStack: 3, MaxLocals: 300}
	c.Insns = []cf.Insn{
		{Op: cf.ILOAD, A: 256}, {Op: cf.IINC, A: 2, B: -129}, {Op: cf.IINC, A: 2, B: 5},
		{Op: cf.SIPUSH, A: -300}, {Op: cf.BIPUSH, A: 100}, {Op: cf.MULTIANEWARRAY, A: 9, B: 3},
		{Op: cf.INVOKEINTERFACE, A: 11, B: 4}, {Op: cf.RETURN},
	}
	body, err := c.Encode()
	require.NoError(t, err)
	back, err := cf.DecodeCode(&pool, body)
	require.NoError(t, err)
	want := []cf.Insn{
		{Op: cf.ILOAD, A: 256, Wide: true}, {Op: cf.IINC, A: 2, B: -129, Wide: true}, {Op: cf.IINC, A: 2, B: 5},
		{Op: cf.SIPUSH, A: -300}, {Op: cf.BIPUSH, A: 100}, {Op: cf.MULTIANEWARRAY, A: 9, B: 3},
		{Op: cf.INVOKEINTERFACE, A: 11, B: 4}, {Op: cf.RETURN},
	}
	assert.Equal(t, want, back.Insns)
	again, err := back.Encode()
	require.NoError(t, err)
	assert.True(t, bytes.Equal(body, again))
}
