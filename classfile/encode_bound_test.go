package classfile

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tracebeat/tracebeat/internal/javatest"
)

// tailSizeBound is what Encode sizes its one buffer by: exact for what
// follows the code array, frames and type annotations aside, whose short
// forms and targets take less than their bound. Every method of the fixtures, and frames that meet the
// bound exactly, hold it.
func TestTailSizeBound(t *testing.T) {
	javatest.RequireJava(t)
	kinds := map[CodeAttributeKind]int{}
	handlers := 0
	for _, dir := range []string{javatest.ClassfileFixtures(t), javatest.ClassfileRelease8Fixtures(t), javatest.InstrumentFixtures(t)} {
		for name, data := range javatest.ClassFiles(t, dir) {
			c, err := Parse(data)
			require.NoError(t, err, name)
			for i := range c.Methods {
				at, ok := c.FindAttribute(c.Methods[i].Attributes, "Code")
				if !ok {
					continue
				}
				code, err := DecodeCode(c.Pool, at.Data)
				require.NoError(t, err, name)
				enc, err := code.Encode()
				require.NoError(t, err, name)
				tail := len(enc) - 8 - int(binary.BigEndian.Uint32(enc[4:]))
				if code.StackMapTable() == nil {
					assert.Equal(t, tail, code.tailSizeBound(), "%s method %d", name, i)
				} else {
					assert.LessOrEqual(t, tail, code.tailSizeBound(), "%s method %d", name, i)
				}
				for _, a := range code.Attributes {
					kinds[a.Kind]++
				}
				handlers += len(code.Handlers)
			}
		}
	}
	assert.Positive(t, handlers, "handlers")
	for _, k := range []CodeAttributeKind{AttrStackMapTable, AttrLineNumberTable, AttrLocalVariableTable, AttrLocalVariableTypeTable, AttrVisibleTypeAnnotations, AttrInvisibleTypeAnnotations} {
		assert.Positive(t, kinds[k], "attributes of kind %d", k)
	}

	// Full frames of references only take their bound to the byte.
	c := &Code{}
	l := c.NewLabel()
	for range 70 {
		c.Insns = append(c.Insns, Insn{Op: NOP})
	}
	c.Insns = append(c.Insns, Insn{Op: RETURN, Mark: l})
	obj := VType{Tag: VObject, Class: 1}
	c.Attributes = []CodeAttribute{{Kind: AttrStackMapTable, Name: 1,
		Frames: []Frame{{Kind: FrameFull, At: l, Locals: []VType{obj, obj}, Stack: []VType{obj}}}}}
	enc, err := c.Encode()
	require.NoError(t, err)
	assert.Equal(t, len(enc)-8-71, c.tailSizeBound())

	// Handlers without frames: exact too. Type annotations: within the
	// bound, which takes 6 bytes for any target.
	start := c.NewLabel()
	c.Insns[0].Mark = start
	c.Handlers = []Handler{{Start: start, End: l, Handler: l}, {Start: start, End: l, Handler: l, CatchType: 1}}
	c.Attributes = nil
	enc, err = c.Encode()
	require.NoError(t, err)
	assert.Equal(t, len(enc)-8-71, c.tailSizeBound())
	rest := []byte{0, 0, 5, 0, 0} // no type path, type_index 5, no pairs
	c.Attributes = []CodeAttribute{{Kind: AttrVisibleTypeAnnotations, Name: 1, TypeAnnotations: []TypeAnnotation{
		{TargetType: 0x40, Ranges: []LocalVarRange{{Start: start, End: l, Index: 1}, {Start: start, End: l, Index: 2}}, Rest: rest},
		{TargetType: 0x43, Offset: l, Rest: rest},
	}}}
	enc, err = c.Encode()
	require.NoError(t, err)
	assert.LessOrEqual(t, len(enc)-8-71, c.tailSizeBound())
	assert.Equal(t, len(enc)-8-71+6, c.tailSizeBound(), "3 bytes over for each target of 3")
	c.Handlers = nil

	// An attribute kept as its bytes (javac writes none in Code).
	c.Attributes = []CodeAttribute{{Kind: AttrRaw, Name: 1, Raw: []byte{1, 2, 3}}}
	enc, err = c.Encode()
	require.NoError(t, err)
	assert.Equal(t, len(enc)-8-71, c.tailSizeBound())
	assert.Equal(t, []byte{0, 1, 0, 0, 0, 3, 1, 2, 3}, enc[len(enc)-9:])
}
