package classfile_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// TestEveryTagsBody: a pool with an entry of every tag parses, each
// entry's body as long as its kind's (JVMS 4.4), and encodes back to the
// same bytes; the class after the pool is where the bodies' lengths say.
func TestEveryTagsBody(t *testing.T) {
	u4 := func(tag byte, v uint32) []byte { return binary.BigEndian.AppendUint32([]byte{tag}, v) }
	u8 := func(tag byte, v uint64) []byte { return binary.BigEndian.AppendUint64([]byte{tag}, v) }
	entries := [][]byte{
		utf8Entry("A"),                          // 1
		entry(cf.TagClass, 1),                   // 2
		utf8Entry("m"),                          // 3
		utf8Entry("()V"),                        // 4
		entry(cf.TagNameAndType, 3, 4),          // 5
		entry(cf.TagMethodref, 2, 5),            // 6
		entry(cf.TagInterfaceMethodref, 2, 5),   // 7
		utf8Entry("I"),                          // 8
		entry(cf.TagNameAndType, 3, 8),          // 9
		entry(cf.TagFieldref, 2, 9),             // 10
		entry(cf.TagString, 1),                  // 11
		u4(cf.TagInteger, 0x01020304),           // 12
		u4(cf.TagFloat, math.Float32bits(1.5)),  // 13
		u8(cf.TagLong, 0x0102030405060708),      // 14, 15 unusable
		u8(cf.TagDouble, math.Float64bits(2.5)), // 16, 17 unusable
		{cf.TagMethodHandle, 6, 0, 6},           // 18: REF_invokeStatic A.m
		entry(cf.TagMethodType, 4),              // 19
		entry(cf.TagDynamic, 0, 9),              // 20
		entry(cf.TagInvokeDynamic, 0, 5),        // 21
		entry(cf.TagModule, 1),                  // 22
		entry(cf.TagPackage, 1),                 // 23
	}
	data := classBytes(entries, 24, 2, 0, nil, []uint16{3, 4})
	c, err := cf.Parse(data)
	require.NoError(t, err)
	slot := 1
	for _, e := range entries {
		tag, body, err := c.Pool.Entry(uint16(slot))
		require.NoError(t, err, "entry %d", slot)
		assert.Equal(t, e[0], tag, "entry %d", slot)
		assert.Equal(t, e[1:], body, "entry %d (tag %d)", slot, e[0])
		slot++
		if e[0] == cf.TagLong || e[0] == cf.TagDouble {
			slot++
		}
	}
	assert.Equal(t, 24, c.Pool.Count())
	assert.Equal(t, uint16(2), c.ThisClass)
	require.Len(t, c.Methods, 1)
	out, err := c.Encode()
	require.NoError(t, err)
	assert.Equal(t, data, out)
}
