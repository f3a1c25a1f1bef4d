package methodmap

import (
	cf "github.com/tracebeat/tracebeat/classfile"
	"testing"
)

// Opcode spellings for the hand-made sequences below.
const (
	aload0        = 0x2a
	iload1        = 0x1b
	iconst5       = 0x08
	ldc2w         = 0x14
	iaload        = 0x2e
	istore2       = 0x3d
	iadd          = 0x60
	pop           = 0x57
	iinc          = 0x84
	ireturn       = 0xac
	areturn       = 0xb1 - 1
	vreturn       = 0xb1
	getstatic     = 0xb2
	putstatic     = 0xb3
	getfield      = 0xb4
	putfield      = 0xb5
	invokevirtual = 0xb6
	invokespecial = 0xb7
	invokestatic  = 0xb8
	invokeiface   = 0xb9
	invokedynamic = 0xba
	newObj        = 0xbb
	dup           = 0x59
	athrow        = 0xbf
	wide          = 0xc4
)

func ops(b ...byte) []byte { return b }

func TestClassifyHandMade(t *testing.T) {
	const public, static, native, abstract = 0x0001, 0x0008, 0x0100, 0x0400
	const iface, absClass = 0x0200 | 0x0400, 0x0400
	tests := []struct {
		name string
		m    MethodInfo
		o    Options
		want Reason
	}{
		// void f() {}
		{"return only", MethodInfo{Name: "f", Opcodes: ops(vreturn)}, Options{}, ReasonEmpty},
		{"native", MethodInfo{Name: "n", Access: native}, Options{}, ReasonEmpty},
		{"abstract method, no code", MethodInfo{Name: "a", Access: abstract}, Options{}, ReasonEmpty},
		{"empty code attribute", MethodInfo{Name: "a", Opcodes: []byte{}}, Options{}, ReasonEmpty},
		// int getX() { return x; }
		{"getter", MethodInfo{Name: "getX", Opcodes: ops(aload0, getfield, ireturn)}, Options{}, ReasonGetterSetter},
		// void setX(int x) { this.x = x; }
		{"setter", MethodInfo{Name: "setX", Opcodes: ops(aload0, iload1, putfield, vreturn)}, Options{}, ReasonGetterSetter},
		// static { S = 5; }
		{"static init of a constant", MethodInfo{Name: "<clinit>", Access: static, Opcodes: ops(iconst5, putstatic, vreturn)}, Options{}, ReasonGetterSetter},
		// long c() { return 42L; }
		{"constant", MethodInfo{Name: "c", Opcodes: ops(ldc2w, 0xad)}, Options{}, ReasonGetterSetter},
		// int at(int i) { return arr[i]; }
		{"array load", MethodInfo{Name: "at", Opcodes: ops(aload0, getfield, iload1, iaload, ireturn)}, Options{}, ReasonGetterSetter},
		// short at(int i) { return arr[i]; }: saload, the last of the loads
		{"short array load", MethodInfo{Name: "at", Opcodes: ops(aload0, getfield, iload1, 0x35, ireturn)}, Options{}, ReasonGetterSetter},
		// void put(int i) { arr[i] = 0; }: iastore, the first of the stores, is not a getter's
		{"array store", MethodInfo{Name: "put", Opcodes: ops(aload0, getfield, iload1, 0x03, 0x4f, vreturn)}, Options{}, ReasonSingle},
		// Foo() {}  ==  aload_0, invokespecial Object.<init>, return
		{"default constructor", MethodInfo{Name: "<init>", Opcodes: ops(aload0, invokespecial, vreturn)}, Options{}, ReasonGetterSetter},
		// Foo(int x) { this.x = x; }
		{"field constructor", MethodInfo{Name: "<init>", Opcodes: ops(aload0, invokespecial, aload0, iload1, putfield, vreturn)}, Options{}, ReasonGetterSetter},
		// Foo(float f) { super(); super.notify(); }: the second invokespecial is a call
		{"constructor with two invokespecial", MethodInfo{Name: "<init>", Opcodes: ops(aload0, invokespecial, aload0, invokespecial, vreturn)}, Options{}, Traced},
		// void s() { super.notify(); }: only constructors get the invokespecial allowance
		{"invokespecial outside constructor", MethodInfo{Name: "s", Opcodes: ops(aload0, invokespecial, vreturn)}, Options{}, Traced},
		// int sum(int a, int b) { return a + b; }
		{"arithmetic", MethodInfo{Name: "sum", Opcodes: ops(iload1, 0x1c, iadd, ireturn)}, Options{}, ReasonSingle},
		// void store(int a) { int b = a; x = b; }
		{"local store", MethodInfo{Name: "store", Opcodes: ops(iload1, istore2, aload0, 0x1c, putfield, vreturn)}, Options{}, ReasonSingle},
		// void boom() { throw E; }
		{"throw", MethodInfo{Name: "boom", Opcodes: ops(getstatic, athrow)}, Options{}, ReasonSingle},
		// wide iinc: WIDE is skipped, IINC still disqualifies the getter rule
		{"wide iinc", MethodInfo{Name: "w", Opcodes: ops(wide, iinc, vreturn)}, Options{}, ReasonSingle},
		// wide iload then return: a getter once WIDE is skipped
		{"wide load", MethodInfo{Name: "w", Opcodes: ops(wide, 0x15, ireturn)}, Options{}, ReasonGetterSetter},
		{"invokevirtual", MethodInfo{Name: "c", Opcodes: ops(aload0, invokevirtual, vreturn)}, Options{}, Traced},
		{"invokestatic", MethodInfo{Name: "c", Opcodes: ops(invokestatic, vreturn)}, Options{}, Traced},
		{"invokeinterface", MethodInfo{Name: "c", Opcodes: ops(iload1, invokeiface, vreturn)}, Options{}, Traced},
		{"invokedynamic", MethodInfo{Name: "c", Opcodes: ops(invokedynamic, areturn)}, Options{}, Traced},
		// Object make() { return new Object(); }
		{"new object", MethodInfo{Name: "make", Opcodes: ops(newObj, dup, invokespecial, areturn)}, Options{}, Traced},

		// class-level rules
		{"interface default method", MethodInfo{ClassAccess: iface, Name: "d", Opcodes: ops(aload0, invokevirtual, pop, vreturn)}, Options{}, ReasonInterface},
		{"abstract class method", MethodInfo{ClassAccess: absClass | public, Name: "b", Opcodes: ops(aload0, invokevirtual, pop, vreturn)}, Options{}, ReasonAbstractClass},
		{"abstract class traced on request", MethodInfo{ClassAccess: absClass, Name: "b", Opcodes: ops(aload0, invokevirtual, pop, vreturn)}, Options{TraceAbstractClasses: true}, Traced},
		{"interface traced on request", MethodInfo{ClassAccess: iface, Name: "d", Opcodes: ops(aload0, invokevirtual, pop, vreturn)}, Options{TraceAbstractClasses: true}, Traced},
		{"blocked wins over everything", MethodInfo{ClassAccess: iface, Blocked: true, Name: "d", Opcodes: ops(vreturn)}, Options{}, ReasonBlocked},
		{"blocked even with TraceAll", MethodInfo{Blocked: true, Name: "c", Opcodes: ops(invokestatic, vreturn)}, Options{TraceAll: true}, ReasonBlocked},

		// switching rules off one at a time: the next rule still applies
		{"empty off, return-only is a getter", MethodInfo{Name: "f", Opcodes: ops(vreturn)}, Options{TraceEmpty: true}, ReasonGetterSetter},
		{"empty+getter off, return-only is single", MethodInfo{Name: "f", Opcodes: ops(vreturn)}, Options{TraceEmpty: true, TraceGetterSetter: true}, ReasonSingle},
		{"getter+single off, return-only is still empty", MethodInfo{Name: "f", Opcodes: ops(vreturn)}, Options{TraceGetterSetter: true, TraceSingle: true}, ReasonEmpty},
		{"getter off, a getter is single", MethodInfo{Name: "getX", Opcodes: ops(aload0, getfield, ireturn)}, Options{TraceGetterSetter: true}, ReasonSingle},
		{"getter+single off, a getter is traced", MethodInfo{Name: "getX", Opcodes: ops(aload0, getfield, ireturn)}, Options{TraceGetterSetter: true, TraceSingle: true}, Traced},
		{"default ctor with getter rule off is traced (has invokespecial)", MethodInfo{Name: "<init>", Opcodes: ops(aload0, invokespecial, vreturn)}, Options{TraceGetterSetter: true}, Traced},
		{"single off", MethodInfo{Name: "sum", Opcodes: ops(iload1, 0x1c, iadd, ireturn)}, Options{TraceSingle: true}, Traced},
		{"empty off, native has no code", MethodInfo{Name: "n", Access: native}, Options{TraceEmpty: true}, ReasonNoCode},

		// TraceAll
		{"TraceAll return only", MethodInfo{Name: "f", Opcodes: ops(vreturn)}, Options{TraceAll: true}, Traced},
		{"TraceAll getter", MethodInfo{Name: "getX", Opcodes: ops(aload0, getfield, ireturn)}, Options{TraceAll: true}, Traced},
		{"TraceAll interface", MethodInfo{ClassAccess: iface, Name: "d", Opcodes: ops(vreturn)}, Options{TraceAll: true}, Traced},
		{"TraceAll native", MethodInfo{Name: "n", Access: native}, Options{TraceAll: true}, ReasonNoCode},
		{"TraceAll abstract method", MethodInfo{ClassAccess: absClass, Name: "a", Access: abstract}, Options{TraceAll: true}, ReasonNoCode},
		{"TraceAll native with bogus opcodes", MethodInfo{Name: "n", Access: native, Opcodes: ops(vreturn)}, Options{TraceAll: true}, ReasonNoCode},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Classify(tc.m, tc.o); got != tc.want {
				t.Errorf("Classify(%+v, %+v) = %q, want %q", tc.m, tc.o, got, tc.want)
			}
		})
	}
}

func TestReasonIgnored(t *testing.T) {
	if Traced.Ignored() {
		t.Error("Traced.Ignored() = true")
	}
	for _, r := range []Reason{ReasonEmpty, ReasonBlocked, Reason("custom-from-instrumenter")} {
		if !r.Ignored() {
			t.Errorf("%q.Ignored() = false", r)
		}
	}
}

// The classfile opcode constants the rules use, and this test's own, must
// agree with the JVM spec's mnemonic table used by the javap reader.
func TestRuleOpcodesMatchSpec(t *testing.T) {
	op := opcodeByMnemonic(t)
	for name, want := range map[string]byte{
		"nop": cf.NOP, "saload": cf.SALOAD, "ireturn": cf.IRETURN, "return": cf.RETURN,
		"getstatic": cf.GETSTATIC, "putfield": cf.PUTFIELD, "invokevirtual": cf.INVOKEVIRTUAL,
		"invokespecial": cf.INVOKESPECIAL, "invokedynamic": cf.INVOKEDYNAMIC, "wide": cf.WIDE,
		"areturn": areturn, "iinc": iinc, "new": newObj, "athrow": athrow, "ldc2_w": ldc2w,
	} {
		if op[name] != want {
			t.Errorf("%s: rules use 0x%02x, spec says 0x%02x", name, want, op[name])
		}
	}
}
