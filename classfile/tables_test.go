package classfile

import (
	"math"
	"testing"
)

// TestSizeTablesAgree: the fast-path tables of the decoder (fixedSize)
// and of layout (layoutSize, mayWiden) give the size insnSize gives, for
// every opcode and for operands on both sides of each widening limit.
func TestSizeTablesAgree(t *testing.T) {
	operands := []Insn{
		{}, {A: 0xFF}, {A: 0x100}, {Wide: true},
		{B: math.MinInt8}, {B: math.MinInt8 - 1}, {B: math.MaxInt8}, {B: math.MaxInt8 + 1},
	}
	checked := 0
	for op := 0; op < 256; op++ {
		k := opKind[op]
		if k == opInvalid || k == opWide || k == opTableSwitch || k == opLookupSwitch {
			if layoutSize[op] != 0 || fixedSize[op] != 0 {
				t.Errorf("opcode 0x%02X (%s): tables give a fixed size to a variable or invalid opcode", op, opInfo[op].name)
			}
			continue
		}
		for _, in := range operands {
			in.Op = Opcode(op)
			want := insnSize(&in, nil, 0)
			got := int(layoutSize[op])
			if mayWiden[op] {
				got = widenedSize(&in)
			}
			if got != want {
				t.Errorf("opcode 0x%02X (%s) %+v: layout tables give %d, insnSize %d", op, opInfo[op].name, in, got, want)
			}
			checked++
		}
		// The decoder's size is the unwidened one, except for the invoke
		// forms, which it decodes on its slow path (fixedSize 0).
		short := insnSize(&Insn{Op: Opcode(op)}, nil, 0)
		if fs := int(fixedSize[op]); fs != short && !(fs == 0 && (k == opInvokeInterface || k == opInvokeDynamic)) {
			t.Errorf("opcode 0x%02X (%s): fixedSize %d, insnSize %d", op, opInfo[op].name, fs, short)
		}
	}
	if checked < 190*len(operands) { // 199 opcodes have a fixed or operand-bound size
		t.Fatalf("only %d opcode/operand pairs checked", checked)
	}
}

// TestPlainDecodingAgrees: an instruction decoded on the word fast path
// (eight bytes of code ahead) equals the same instruction decoded by the
// operand switch (at the end of the code, too close for a word), for
// every opcode with plain operands and operand bytes of both signs.
func TestPlainDecodingAgrees(t *testing.T) {
	pool := &ConstantPool{}
	patterns := [][3]byte{{0x00, 0x00, 0x00}, {0x7F, 0x80, 0x01}, {0xFF, 0xFE, 0x80}, {0x12, 0x34, 0x56}}
	checked := 0
	for op := 0; op < 256; op++ {
		if !plainOperands[op].plain {
			continue
		}
		size := int(fixedSize[op])
		for _, p := range patterns {
			insn := append([]byte{byte(op)}, p[:size-1]...)
			ahead := append(append([]byte{}, insn...), make([]byte, 8)...) // nops follow
			first := decodeFirst(t, pool, ahead)
			last := decodeFirst(t, pool, insn)
			if first != last {
				t.Errorf("opcode 0x%02X (%s) operands % X: fast path %+v, switch %+v", op, opInfo[op].name, p[:size-1], first, last)
			}
			checked++
		}
	}
	if checked < 150*len(patterns) {
		t.Fatalf("only %d opcode/operand pairs checked", checked)
	}
}

// decodeFirst decodes code and returns its first instruction.
func decodeFirst(t *testing.T, pool *ConstantPool, code []byte) Insn {
	t.Helper()
	d := &codeDecoder{pool: pool, code: code, c: &Code{}}
	d.insnAt = make([]int32, len(code)+1)
	insns := make([]Insn, len(code))
	if _, err := d.decodeInsnsInto(insns); err != nil {
		t.Fatalf("% X: %v", code, err)
	}
	return insns[0]
}
