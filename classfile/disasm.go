package classfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file renders instructions as text, javap-style, for `tracebeat
// inspect` and for messages: the one place that turns an Insn and its
// constant-pool operands into words.

// poolBody returns the body of entry i when it has tag want.
func poolBody(pool *ConstantPool, i uint16, want uint8) ([]byte, bool) {
	tag, b, err := pool.Entry(i)
	return b, err == nil && tag == want
}

// FormatConstant renders a loadable constant (the operand of ldc, ldc_w,
// ldc2_w) as source-like text: 42, 1.5f, "text", class a/B, ...
func FormatConstant(pool *ConstantPool, i uint16) string {
	switch tag := pool.Tag(i); tag {
	case TagInteger:
		v, _ := pool.Integer(i)
		return strconv.Itoa(int(v))
	case TagFloat:
		b, _ := poolBody(pool, i, tag)
		return strconv.FormatFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(b))), 'g', -1, 32) + "f"
	case TagLong:
		b, _ := poolBody(pool, i, tag)
		return strconv.FormatInt(int64(binary.BigEndian.Uint64(b)), 10) + "L"
	case TagDouble:
		b, _ := poolBody(pool, i, tag)
		return strconv.FormatFloat(math.Float64frombits(binary.BigEndian.Uint64(b)), 'g', -1, 64) + "d"
	case TagString:
		s, _ := pool.StringValue(i)
		return strconv.Quote(s)
	case TagClass:
		n, _ := pool.ClassName(i)
		return "class " + n
	case TagMethodType:
		b, _ := poolBody(pool, i, tag)
		d, _ := pool.Utf8(binary.BigEndian.Uint16(b))
		return "methodtype " + d
	case TagMethodHandle:
		b, _ := poolBody(pool, i, tag)
		return "methodhandle " + handleKind(b[0]) + " " + FormatMemberRef(pool, binary.BigEndian.Uint16(b[1:]))
	case TagDynamic:
		return "dynamic " + poolDynamic(i, pool)
	default:
		return fmt.Sprintf("#%d (tag %d)", i, tag)
	}
}

// dynamic renders an InvokeDynamic or Dynamic entry as
// "#<bootstrap>:<name><descriptor>".
func poolDynamic(i uint16, pool *ConstantPool) string {
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

// FormatMemberRef renders a field reference as owner.name:desc and a
// method reference as owner.name(desc).
func FormatMemberRef(pool *ConstantPool, i uint16) string {
	r, err := pool.Ref(i)
	if err != nil {
		return fmt.Sprintf("#%d", i)
	}
	if r.Tag == TagFieldref {
		return r.Class + "." + r.Name + ":" + r.Descriptor
	}
	return r.Class + "." + r.Name + r.Descriptor
}

var newarrayTypes = map[int32]string{4: "boolean", 5: "char", 6: "float", 7: "double", 8: "byte", 9: "short", 10: "int", 11: "long"}

// Disassembler renders the instructions of one method.
type Disassembler struct {
	code     *Code
	pool     *ConstantPool
	labelOff []int // by label, -1 when not placed
}

// NewDisassembler renders the instructions of code, whose constants are in
// pool; labelOff are the label offsets of code.Offsets, so that branch
// targets show as offsets.
func NewDisassembler(code *Code, pool *ConstantPool, labelOff []int) *Disassembler {
	return &Disassembler{code: code, pool: pool, labelOff: labelOff}
}

// Target renders a label as the offset it was laid out at.
func (d *Disassembler) Target(l Label) string {
	if int(l) < len(d.labelOff) && d.labelOff[l] >= 0 {
		return strconv.Itoa(d.labelOff[l])
	}
	return fmt.Sprintf("?L%d", l)
}

// Insn renders one instruction javap-style ("invokestatic a/B.m(I)V",
// "ifeq 42"); switches also return their case lines.
func (d *Disassembler) Insn(in Insn) (text string, cases []string) {
	name := in.Op.String()
	if in.Wide {
		name = "wide " + name
	}
	op := func(format string, args ...any) string { return name + " " + fmt.Sprintf(format, args...) }
	switch {
	case in.Op == TABLESWITCH || in.Op == LOOKUPSWITCH:
		sw := d.code.Switches[in.A]
		for k, t := range sw.Targets {
			key := sw.Low + int32(k)
			if sw.Keys != nil {
				key = sw.Keys[k]
			}
			cases = append(cases, fmt.Sprintf("%d: %s", key, d.Target(t)))
		}
		cases = append(cases, "default: "+d.Target(sw.Default))
		if sw.Keys == nil {
			return op("%d..%d", sw.Low, sw.Low+int32(len(sw.Targets))-1), cases
		}
		return op("%d pairs", len(sw.Keys)), cases
	case in.Op.IsBranch():
		return op("%s", d.Target(in.Target)), nil
	case in.Op == IINC:
		return op("%d %d", in.A, in.B), nil
	case in.Op == BIPUSH || in.Op == SIPUSH:
		return op("%d", in.A), nil
	case in.Op == NEWARRAY:
		if t, ok := newarrayTypes[in.A]; ok {
			return op("%s", t), nil
		}
		return op("%d", in.A), nil
	case in.Op == LDC || in.Op == LDC_W || in.Op == LDC2_W:
		return op("%s", FormatConstant(d.pool, uint16(in.A))), nil
	case in.Op >= GETSTATIC && in.Op <= INVOKEINTERFACE:
		return op("%s", FormatMemberRef(d.pool, uint16(in.A))), nil
	case in.Op == INVOKEDYNAMIC:
		return op("%s", poolDynamic(uint16(in.A), d.pool)), nil
	case in.Op == NEW || in.Op == ANEWARRAY || in.Op == CHECKCAST || in.Op == INSTANCEOF:
		n, err := d.pool.ClassName(uint16(in.A))
		if err != nil {
			return op("#%d", in.A), nil
		}
		return op("%s", n), nil
	case in.Op == MULTIANEWARRAY:
		n, _ := d.pool.ClassName(uint16(in.A))
		return op("%s %d", n, in.B), nil
	case in.Wide || in.Op >= ILOAD && in.Op <= ALOAD || in.Op >= ISTORE && in.Op <= ASTORE || in.Op == RET: // locals
		return op("%d", in.A), nil
	}
	return name, nil
}
