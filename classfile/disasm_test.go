package classfile

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// disasmPool holds one constant of each kind the disassembler renders.
type disasmPool struct {
	pool                                     ConstantPool
	integer, float, long, double, str, class uint16
	methodType, handle, badHandle, dynamic   uint16
	indyMethod, field, method, iface, nat    uint16
}

func newDisasmPool(t *testing.T) *disasmPool {
	d := &disasmPool{}
	p := &d.pool
	must := func(i uint16, err error) uint16 {
		require.NoError(t, err)
		return i
	}
	must(p.AddUtf8("")) // entry 0 is never used
	d.integer = must(p.AddInteger(-42))
	d.float = must(p.findOrAdd(TagFloat, binary.BigEndian.AppendUint32(nil, math.Float32bits(1.5))))
	d.long = must(p.findOrAdd(TagLong, binary.BigEndian.AppendUint64(nil, uint64(1<<40))))
	d.double = must(p.findOrAdd(TagDouble, binary.BigEndian.AppendUint64(nil, math.Float64bits(-0.25))))
	d.str = must(p.AddString("a \"q\"\n"))
	d.class = must(p.AddClass("a/B"))
	d.method = must(p.AddMethodref("a/B", "m", "(I)V"))
	d.nat = must(p.AddNameAndType("f", "J"))
	d.field = must(p.addIndexed(TagFieldref, d.class, d.nat))
	d.iface = must(p.addIndexed(TagInterfaceMethodref, d.class, must(p.AddNameAndType("run", "()V"))))
	d.methodType = must(p.addIndexed(TagMethodType, must(p.AddUtf8("()J"))))
	d.handle = must(p.findOrAdd(TagMethodHandle, append([]byte{6}, binary.BigEndian.AppendUint16(nil, d.method)...)))
	d.badHandle = must(p.findOrAdd(TagMethodHandle, append([]byte{12}, binary.BigEndian.AppendUint16(nil, d.method)...)))
	d.dynamic = must(p.addIndexed(TagDynamic, 3, d.nat))
	d.indyMethod = must(p.addIndexed(TagInvokeDynamic, 1, must(p.AddNameAndType("apply", "()Ljava/util/function/Function;"))))
	return d
}

func TestFormatConstant(t *testing.T) {
	d := newDisasmPool(t)
	for _, tt := range []struct {
		i    uint16
		want string
	}{
		{d.integer, "-42"},
		{d.float, "1.5f"},
		{d.long, "1099511627776L"},
		{d.double, "-0.25d"},
		{d.str, `"a \"q\"\n"`},
		{d.class, "class a/B"},
		{d.methodType, "methodtype ()J"},
		{d.handle, "methodhandle REF_invokeStatic a/B.m(I)V"},
		{d.badHandle, "methodhandle REF_12 a/B.m(I)V"},
		{d.dynamic, "dynamic #3:f:J"},
		{d.method, "#" + itoa(d.method) + " (tag 10)"},
		{9999, "#9999 (tag 0)"},
	} {
		assert.Equal(t, tt.want, FormatConstant(&d.pool, tt.i))
	}
	assert.Equal(t, "a/B.f:J", FormatMemberRef(&d.pool, d.field))
	assert.Equal(t, "a/B.m(I)V", FormatMemberRef(&d.pool, d.method))
	assert.Equal(t, "a/B.run()V", FormatMemberRef(&d.pool, d.iface))
	assert.Equal(t, "#"+itoa(d.class), FormatMemberRef(&d.pool, d.class))
	for k, want := range map[byte]string{0: "REF_0", 1: "REF_getField", 5: "REF_invokeVirtual", 9: "REF_invokeInterface", 10: "REF_10"} {
		assert.Equal(t, want, handleKind(k))
	}
	assert.Equal(t, "#1:apply()Ljava/util/function/Function;", poolDynamic(d.indyMethod, &d.pool))
	assert.Equal(t, "#"+itoa(d.class), poolDynamic(d.class, &d.pool))
}

func itoa(i uint16) string { return strconv.Itoa(int(i)) }

// TestDisassembleInsn renders one instruction of each operand shape.
func TestDisassembleInsn(t *testing.T) {
	d := newDisasmPool(t)
	code := &Code{}
	placed, unplaced := code.NewLabel(), code.NewLabel()
	code.Switches = []Switch{
		{Default: placed, Low: -1, Targets: []Label{placed, unplaced}},
		{Default: unplaced, Keys: []int32{7, 100}, Targets: []Label{placed, placed}},
	}
	offsets := []int{-1, 17, -1}
	// A label at offset 0 is placed; one past the table is not.
	assert.Equal(t, "0", NewDisassembler(code, &d.pool, []int{-1, 0}).Target(1))
	assert.Equal(t, "?L2", NewDisassembler(code, &d.pool, []int{-1, 0}).Target(2))
	dis := NewDisassembler(code, &d.pool, offsets)
	tests := []struct {
		in    Insn
		want  string
		cases []string
	}{
		{Insn{Op: NOP}, "nop", nil},
		{Insn{Op: TABLESWITCH, A: 0}, "tableswitch -1..0", []string{"-1: 17", "0: ?L2", "default: 17"}},
		{Insn{Op: LOOKUPSWITCH, A: 1}, "lookupswitch 2 pairs", []string{"7: 17", "100: 17", "default: ?L2"}},
		{Insn{Op: IFEQ, Target: placed}, "ifeq 17", nil},
		{Insn{Op: GOTO_W, Target: unplaced}, "goto_w ?L2", nil},
		{Insn{Op: GOTO, Target: Label(9)}, "goto ?L9", nil},
		{Insn{Op: IINC, A: 3, B: -1}, "iinc 3 -1", nil},
		{Insn{Op: IINC, Wide: true, A: 300, B: 1000}, "wide iinc 300 1000", nil},
		{Insn{Op: BIPUSH, A: -5}, "bipush -5", nil},
		{Insn{Op: SIPUSH, A: 1000}, "sipush 1000", nil},
		{Insn{Op: NEWARRAY, A: 10}, "newarray int", nil},
		{Insn{Op: NEWARRAY, A: 4}, "newarray boolean", nil},
		{Insn{Op: NEWARRAY, A: 5}, "newarray char", nil},
		{Insn{Op: NEWARRAY, A: 6}, "newarray float", nil},
		{Insn{Op: NEWARRAY, A: 7}, "newarray double", nil},
		{Insn{Op: NEWARRAY, A: 8}, "newarray byte", nil},
		{Insn{Op: NEWARRAY, A: 9}, "newarray short", nil},
		{Insn{Op: NEWARRAY, A: 11}, "newarray long", nil},
		{Insn{Op: NEWARRAY, A: 12}, "newarray 12", nil},
		{Insn{Op: NEWARRAY, A: 3}, "newarray 3", nil},
		{Insn{Op: NEWARRAY, A: 99}, "newarray 99", nil},
		{Insn{Op: LDC, A: int32(d.str)}, `ldc "a \"q\"\n"`, nil},
		{Insn{Op: LDC_W, A: int32(d.integer)}, "ldc_w -42", nil},
		{Insn{Op: LDC2_W, A: int32(d.long)}, "ldc2_w 1099511627776L", nil},
		{Insn{Op: GETSTATIC, A: int32(d.field)}, "getstatic a/B.f:J", nil},
		{Insn{Op: INVOKEINTERFACE, A: int32(d.iface), B: 1}, "invokeinterface a/B.run()V", nil},
		{Insn{Op: INVOKEDYNAMIC, A: int32(d.indyMethod)}, "invokedynamic #1:apply()Ljava/util/function/Function;", nil},
		{Insn{Op: NEW, A: int32(d.class)}, "new a/B", nil},
		{Insn{Op: CHECKCAST, A: int32(d.class)}, "checkcast a/B", nil},
		{Insn{Op: INSTANCEOF, A: int32(d.method)}, "instanceof #" + itoa(d.method), nil},
		{Insn{Op: ANEWARRAY, A: int32(d.class)}, "anewarray a/B", nil},
		{Insn{Op: MULTIANEWARRAY, A: int32(d.class), B: 2}, "multianewarray a/B 2", nil},
		{Insn{Op: ILOAD, A: 4}, "iload 4", nil},
		{Insn{Op: ALOAD, A: 5}, "aload 5", nil},
		{Insn{Op: ISTORE, A: 6}, "istore 6", nil},
		{Insn{Op: ASTORE, A: 7}, "astore 7", nil},
		{Insn{Op: ALOAD, Wide: true, A: 500}, "wide aload 500", nil},
		{Insn{Op: RET, A: 2}, "ret 2", nil},
		{Insn{Op: ALOAD_0}, "aload_0", nil},
		{Insn{Op: SALOAD}, "saload", nil},
		{Insn{Op: ATHROW}, "athrow", nil},
	}
	for _, tt := range tests {
		text, cases := dis.Insn(tt.in)
		assert.Equal(t, tt.want, text)
		assert.Equal(t, tt.cases, cases, tt.want)
	}
}
