package classfile

import (
	"strings"
	"testing"
)

func TestDescriptorSlots(t *testing.T) {
	methods := []struct {
		desc        string
		params, ret int
		ok          bool
	}{
		{"()V", 0, 0, true},
		{"(I)V", 1, 0, true},
		{"(JD)J", 4, 2, true},
		{"([J[D)D", 2, 2, true},
		{"(Ljava/lang/String;[[I)Ljava/lang/Object;", 2, 1, true},
		{"(ZBCSIFJD)V", 10, 0, true},
		{"([Ljava/lang/Object;)[J", 1, 1, true},
		{"(L;)V", 0, 0, false},
		{"(Ljava/lang/String)V", 0, 0, false},
		{"(I", 0, 0, false},
		{"()", 0, 0, false},
		{"()VV", 0, 0, false},
		{"()[", 0, 0, false},
		{"(V)V", 0, 0, false},
		{"(I)Ljava/lang/String;x", 0, 0, false},
		{"(X)V", 0, 0, false},
		{"I", 0, 0, false},
		{"I)V", 0, 0, false},
		{"X)V", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, d := range []string{"(I", "(", "()", "X"} {
		if _, _, err := MethodSlots(d); err == nil || !strings.Contains(err.Error(), "malformed method descriptor") {
			t.Errorf("MethodSlots(%q): %v, want a malformed method descriptor", d, err)
		}
	}
	for _, tc := range methods {
		for _, form := range []string{"string", "bytes"} {
			var p, r int
			var err error
			if form == "string" {
				p, r, err = MethodSlots(tc.desc)
			} else {
				p, r, err = MethodSlots([]byte(tc.desc))
			}
			if (err == nil) != tc.ok || p != tc.params || r != tc.ret {
				t.Errorf("MethodSlots(%q) as %s = %d, %d, %v; want %d, %d, ok=%v", tc.desc, form, p, r, err, tc.params, tc.ret, tc.ok)
			}
		}
	}
	fields := []struct {
		desc  string
		slots int
		ok    bool
	}{
		{"I", 1, true}, {"J", 2, true}, {"D", 2, true}, {"[D", 1, true}, {"[[[Lp/q;", 1, true},
		{"Ljava/util/List;", 1, true}, {"L;", 0, false}, {"[", 0, false}, {"", 0, false},
		{"Lx;y", 0, false}, {"X", 0, false}, {"()V", 0, false},
		{"L;a;", 0, false}, // an empty class name ends at the first ';'
		{"La;", 1, true},
	}
	for _, tc := range fields {
		n, err := FieldSlots(tc.desc)
		nb, errb := FieldSlots([]byte(tc.desc))
		if (err == nil) != tc.ok || n != tc.slots || n != nb || (err == nil) != (errb == nil) {
			t.Errorf("FieldSlots(%q) = %d, %v (bytes: %d, %v); want %d, ok=%v", tc.desc, n, err, nb, errb, tc.slots, tc.ok)
		}
	}
}

// InitialLocals refuses what MethodSlots refuses, before reading a
// parameter.
func TestInitialLocalsRefusesAMalformedDescriptor(t *testing.T) {
	for _, desc := range []string{"", "I)V", "X)V", "(I", "(L;)V"} {
		if locals, err := InitialLocals(desc, true, false); err == nil {
			t.Errorf("InitialLocals(%q) = %v, want an error", desc, locals)
		}
	}
}

// The named opcode constants are what the JVM spec calls them.
func TestOpcodeConstantNames(t *testing.T) {
	named := map[Opcode]string{
		NOP: "nop", ACONST_NULL: "aconst_null", ICONST_M1: "iconst_m1", ICONST_0: "iconst_0", ICONST_5: "iconst_5",
		BIPUSH: "bipush", SIPUSH: "sipush", LDC: "ldc", LDC_W: "ldc_w", LDC2_W: "ldc2_w", ILOAD: "iload",
		ILOAD_1: "iload_1", ALOAD: "aload", ALOAD_0: "aload_0", ALOAD_3: "aload_3", SALOAD: "saload",
		ISTORE: "istore", ASTORE: "astore", ISTORE_0: "istore_0", ASTORE_3: "astore_3", POP: "pop", DUP: "dup",
		SWAP: "swap", IINC: "iinc", IFEQ: "ifeq", GOTO: "goto", JSR: "jsr", RET: "ret", TABLESWITCH: "tableswitch",
		LOOKUPSWITCH: "lookupswitch", IRETURN: "ireturn", RETURN: "return", GETSTATIC: "getstatic",
		PUTSTATIC: "putstatic", GETFIELD: "getfield", PUTFIELD: "putfield", INVOKEVIRTUAL: "invokevirtual",
		INVOKESPECIAL: "invokespecial", INVOKESTATIC: "invokestatic", INVOKEINTERFACE: "invokeinterface",
		INVOKEDYNAMIC: "invokedynamic", NEW: "new", NEWARRAY: "newarray", ANEWARRAY: "anewarray",
		ATHROW: "athrow", CHECKCAST: "checkcast", INSTANCEOF: "instanceof", WIDE: "wide",
		MULTIANEWARRAY: "multianewarray", IFNULL: "ifnull", IFNONNULL: "ifnonnull", GOTO_W: "goto_w", JSR_W: "jsr_w",
	}
	for op, want := range named {
		if op.String() != want {
			t.Errorf("constant 0x%02x is %s, named %s", uint8(op), op, want)
		}
	}
	if got := Opcode(0xcb).String(); got != "0xcb" {
		t.Errorf("undefined opcode shows as %q", got)
	}
	if pop, push, ok := Opcode(LDC2_W).StackEffect(); !ok || pop != 0 || push != 2 {
		t.Errorf("ldc2_w effect %d %d %v", pop, push, ok)
	}
	if _, _, ok := Opcode(INVOKESTATIC).StackEffect(); ok {
		t.Error("invokestatic's effect depends on its descriptor")
	}
}
