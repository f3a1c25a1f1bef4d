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

var newarrayTypes = map[int32]string{4: "boolean", 5: "char", 6: "float", 7: "double", 8: "byte", 9: "short", 10: "int", 11: "long"}

// disassembler renders the instructions of one method.
type disassembler struct {
	code     *cf.Code
	pool     *cf.ConstantPool
	labelOff []int // by label, -1 when not placed
}

func (d *disassembler) target(l cf.Label) string {
	if int(l) < len(d.labelOff) && d.labelOff[l] >= 0 {
		return strconv.Itoa(d.labelOff[l])
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
	case in.Wide || in.Op >= cf.ILOAD && in.Op <= cf.ALOAD || in.Op >= cf.ISTORE && in.Op <= cf.ASTORE || in.Op == cf.RET: // locals
		return op("%d", in.A), nil
	}
	return name, nil
}

const instanceofOp = 0xc1
