package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// poolBody returns the body of entry i when it has tag want.
func poolBody(pool *cf.ConstantPool, i uint16, want uint8) ([]byte, bool) {
	tag, b, err := pool.Entry(i)
	return b, err == nil && tag == want
}

// constant renders a loadable constant (ldc, ldc_w, ldc2_w operands).
func poolConstant(i uint16, pool *cf.ConstantPool) string {
	switch tag := pool.Tag(i); tag {
	case cf.TagInteger:
		v, _ := pool.Integer(i)
		return strconv.Itoa(int(v))
	case cf.TagFloat:
		b, _ := poolBody(pool, i, tag)
		return strconv.FormatFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(b))), 'g', -1, 32) + "f"
	case cf.TagLong:
		b, _ := poolBody(pool, i, tag)
		return strconv.FormatInt(int64(binary.BigEndian.Uint64(b)), 10) + "L"
	case cf.TagDouble:
		b, _ := poolBody(pool, i, tag)
		return strconv.FormatFloat(math.Float64frombits(binary.BigEndian.Uint64(b)), 'g', -1, 64) + "d"
	case cf.TagString:
		s, _ := pool.StringValue(i)
		return strconv.Quote(s)
	case cf.TagClass:
		n, _ := pool.ClassName(i)
		return "class " + n
	case cf.TagMethodType:
		b, _ := poolBody(pool, i, tag)
		d, _ := pool.Utf8(binary.BigEndian.Uint16(b))
		return "methodtype " + d
	case cf.TagMethodHandle:
		b, _ := poolBody(pool, i, tag)
		return "methodhandle " + handleKind(b[0]) + " " + memberRef(pool, binary.BigEndian.Uint16(b[1:]))
	case cf.TagDynamic:
		return "dynamic " + poolDynamic(i, pool)
	default:
		return fmt.Sprintf("#%d (tag %d)", i, tag)
	}
}

// dynamic renders an InvokeDynamic or Dynamic entry as
// "#<bootstrap>:<name><descriptor>".
func poolDynamic(i uint16, pool *cf.ConstantPool) string {
	nat, err := pool.IndyNameAndType(i)
	if err != nil {
		return fmt.Sprintf("#%d", i)
	}
	name, desc, _ := pool.NameAndType(nat)
	bsm := -1
	if b, ok := poolBody(pool, i, pool.Tag(i)); ok {
		bsm = int(binary.BigEndian.Uint16(b))
	}
	if strings.HasPrefix(desc, "(") {
		return fmt.Sprintf("#%d:%s%s", bsm, name, desc)
	}
	return fmt.Sprintf("#%d:%s:%s", bsm, name, desc)
}

func handleKind(k byte) string {
	names := []string{"", "REF_getField", "REF_getStatic", "REF_putField", "REF_putStatic",
		"REF_invokeVirtual", "REF_invokeStatic", "REF_invokeSpecial", "REF_newInvokeSpecial", "REF_invokeInterface"}
	if int(k) < len(names) && k > 0 {
		return names[k]
	}
	return fmt.Sprintf("REF_%d", k)
}

// memberRef renders a field as owner.name:desc and a method as
// owner.name(desc).
func memberRef(pool *cf.ConstantPool, i uint16) string {
	r, err := pool.Ref(i)
	if err != nil {
		return fmt.Sprintf("#%d", i)
	}
	if r.Tag == cf.TagFieldref {
		return r.Class + "." + r.Name + ":" + r.Descriptor
	}
	return r.Class + "." + r.Name + r.Descriptor
}

// operandBytes is the operand length of each fixed-size opcode (the
// switches are sized by insnSize).
var operandBytes = func() (t [256]uint8) {
	set := func(n uint8, ops ...int) {
		for _, op := range ops {
			t[op] = n
		}
	}
	set(1, 0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3a, 0xa9, 0xbc)
	set(2, 0x11, 0x13, 0x14, 0x84, 0xbb, 0xbd, 0xc0, 0xc1, 0xc6, 0xc7)
	for op := 0x99; op <= 0xa8; op++ { // if<cond>, if_<x>cmp<cond>, goto, jsr
		t[op] = 2
	}
	for op := 0xb2; op <= 0xb8; op++ { // field access, invokevirtual/special/static
		t[op] = 2
	}
	set(3, 0xc5)
	set(4, 0xb9, 0xba, 0xc8, 0xc9)
	return t
}()

// insnSize is the encoded size of an instruction at offset off.
func insnSize(in *cf.Insn, code *cf.Code, off int) int {
	if in.Wide {
		if in.Op == cf.IINC {
			return 6
		}
		return 4
	}
	switch in.Op {
	case cf.TABLESWITCH:
		return 1 + (3 - off%4) + 12 + 4*len(code.Switches[in.A].Targets)
	case cf.LOOKUPSWITCH:
		return 1 + (3 - off%4) + 8 + 8*len(code.Switches[in.A].Keys)
	}
	return 1 + int(operandBytes[in.Op])
}

// codeOffsets returns the byte offset of every instruction and of every
// label (Mark, End), computed from instruction sizes. codeLen, the length
// of the code array, cross-checks the walk.
func codeOffsets(code *cf.Code, codeLen int) (insnOff []int, labelOff map[cf.Label]int, err error) {
	insnOff = make([]int, len(code.Insns))
	labelOff = map[cf.Label]int{}
	off := 0
	for i := range code.Insns {
		in := &code.Insns[i]
		if (in.Op == cf.TABLESWITCH || in.Op == cf.LOOKUPSWITCH) && (in.A < 0 || int(in.A) >= len(code.Switches)) {
			return nil, nil, fmt.Errorf("instruction %d: switch %d of %d", i, in.A, len(code.Switches))
		}
		insnOff[i] = off
		if in.Mark != cf.NoLabel {
			labelOff[in.Mark] = off
		}
		off += insnSize(in, code, off)
	}
	if off != codeLen {
		return nil, nil, fmt.Errorf("instruction sizes add up to %d bytes, the code has %d", off, codeLen)
	}
	if code.End != cf.NoLabel {
		labelOff[code.End] = off
	}
	return insnOff, labelOff, nil
}

var newarrayTypes = map[int32]string{4: "boolean", 5: "char", 6: "float", 7: "double", 8: "byte", 9: "short", 10: "int", 11: "long"}

// disassembler renders the instructions of one method.
type disassembler struct {
	code     *cf.Code
	pool     *cf.ConstantPool
	labelOff map[cf.Label]int
}

func (d *disassembler) target(l cf.Label) string {
	if off, ok := d.labelOff[l]; ok {
		return strconv.Itoa(off)
	}
	return fmt.Sprintf("?L%d", l)
}

// insn renders one instruction javap-style ("invokestatic a/B.m(I)V",
// "ifeq 42"); switches also return their case lines.
func (d *disassembler) insn(in cf.Insn) (text string, cases []string) {
	name := cf.OpcodeName(in.Op)
	if in.Wide {
		name = "wide " + name
	}
	op := func(format string, args ...any) string { return name + " " + fmt.Sprintf(format, args...) }
	switch {
	case in.Op == cf.TABLESWITCH || in.Op == cf.LOOKUPSWITCH:
		sw := d.code.Switches[in.A]
		for k, t := range sw.Targets {
			key := sw.Low + int32(k)
			if sw.Keys != nil {
				key = sw.Keys[k]
			}
			cases = append(cases, fmt.Sprintf("%d: %s", key, d.target(t)))
		}
		cases = append(cases, "default: "+d.target(sw.Default))
		if sw.Keys == nil {
			return op("%d..%d", sw.Low, sw.Low+int32(len(sw.Targets))-1), cases
		}
		return op("%d pairs", len(sw.Keys)), cases
	case cf.IsBranch(in.Op):
		return op("%s", d.target(in.Target)), nil
	case in.Op == cf.IINC:
		return op("%d %d", in.A, in.B), nil
	case in.Op == cf.BIPUSH || in.Op == cf.SIPUSH:
		return op("%d", in.A), nil
	case in.Op == cf.NEWARRAY:
		if t, ok := newarrayTypes[in.A]; ok {
			return op("%s", t), nil
		}
		return op("%d", in.A), nil
	case in.Op == cf.LDC || in.Op == cf.LDC_W || in.Op == cf.LDC2_W:
		return op("%s", poolConstant(uint16(in.A), d.pool)), nil
	case in.Op >= cf.GETSTATIC && in.Op <= cf.INVOKEINTERFACE:
		return op("%s", memberRef(d.pool, uint16(in.A))), nil
	case in.Op == cf.INVOKEDYNAMIC:
		return op("%s", poolDynamic(uint16(in.A), d.pool)), nil
	case in.Op == cf.NEW || in.Op == cf.ANEWARRAY || in.Op == cf.CHECKCAST || in.Op == instanceofOp:
		n, err := d.pool.ClassName(uint16(in.A))
		if err != nil {
			return op("#%d", in.A), nil
		}
		return op("%s", n), nil
	case in.Op == cf.MULTIANEWARRAY:
		n, _ := d.pool.ClassName(uint16(in.A))
		return op("%s %d", n, in.B), nil
	case operandBytes[in.Op] == 1 || in.Wide: // locals: xload, xstore, ret
		return op("%d", in.A), nil
	}
	return name, nil
}

const instanceofOp = 0xc1
