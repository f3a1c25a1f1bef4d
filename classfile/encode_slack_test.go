package classfile

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fast path of appendInsns writes a whole word into spare capacity,
// which Encode always reserves; without it (a buffer of no slack) each
// instruction goes the long way, and must come out the same bytes.
func TestInsnsWithoutSlackAreTheSame(t *testing.T) {
	operands := [][2]int32{{0, 0}, {5, 3}, {0x7F, -1}, {0xFF, 0x7F}, {0x1234, -128}, {0xFFFF, 1}}
	tested := 0
	for op := range 256 {
		if !plainForm[op] {
			continue
		}
		for _, ab := range operands {
			in := Insn{Op: Opcode(op), A: ab[0], B: ab[1]}
			if mayWiden[op] && widenedSize(&in) != int(layoutSize[op]) {
				continue // its wide form: not on the fast path
			}
			c := &Code{Insns: []Insn{in, {Op: NOP}}}
			lo := getEncodeScratch()
			n, err := c.layout(lo)
			require.NoError(t, err, "%s %v", opInfo[op].name, ab)
			fast, err := c.appendInsns(make([]byte, 0, n+8), lo)
			require.NoError(t, err)
			slow, err := c.appendInsns(make([]byte, 0, n), lo)
			require.NoError(t, err)
			putEncodeScratch(lo)
			assert.Equal(t, fast, slow, "%s %v", opInfo[op].name, ab)
			assert.Len(t, slow, n, "%s %v", opInfo[op].name, ab)
			tested++
		}
	}
	assert.Greater(t, tested, 150)
}

// An opcode the JVM does not define is named as such, and a Code without
// frames has no StackMapTable.
func TestUnknownOpcodeAndNoFrames(t *testing.T) {
	assert.Equal(t, "unknown opcode", opName(uint8(0xCB)))
	assert.Equal(t, "nop", opName(uint8(NOP)))
	c := &Code{Attributes: []CodeAttribute{{Kind: AttrLineNumberTable}}}
	assert.Nil(t, c.StackMapTable())
	c.Attributes = append(c.Attributes, CodeAttribute{Kind: AttrStackMapTable})
	assert.Same(t, &c.Attributes[1], c.StackMapTable())
}
