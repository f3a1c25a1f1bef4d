package classfile

import (
	"strings"
	"testing"
)

// stackForms are the JVM specification's operand stack forms (chapter 6,
// "Operand Stack: ..., before → ..., after") of the opcodes whose effect
// the opcode alone decides, in its types: I int, J long, F float, D
// double, A reference, R returnAddress, X a slot of any category-1 value
// (pop2 takes two). A long or a double is two slots, the rest one.
var stackForms = map[string]string{
	"nop": "->", "iinc": "->", "goto": "->", "goto_w": "->", "ret": "->", "return": "->",
	"aconst_null": "-> A",
	"iconst_m1":   "-> I", "iconst_0": "-> I", "iconst_1": "-> I", "iconst_2": "-> I", "iconst_3": "-> I", "iconst_4": "-> I", "iconst_5": "-> I",
	"lconst_0": "-> J", "lconst_1": "-> J",
	"fconst_0": "-> F", "fconst_1": "-> F", "fconst_2": "-> F",
	"dconst_0": "-> D", "dconst_1": "-> D",
	"bipush": "-> I", "sipush": "-> I",
	"ldc": "-> X", "ldc_w": "-> X", "ldc2_w": "-> J",
	"iload": "-> I", "iload_0": "-> I", "iload_1": "-> I", "iload_2": "-> I", "iload_3": "-> I",
	"lload": "-> J", "lload_0": "-> J", "lload_1": "-> J", "lload_2": "-> J", "lload_3": "-> J",
	"fload": "-> F", "fload_0": "-> F", "fload_1": "-> F", "fload_2": "-> F", "fload_3": "-> F",
	"dload": "-> D", "dload_0": "-> D", "dload_1": "-> D", "dload_2": "-> D", "dload_3": "-> D",
	"iaload": "A I -> I", "laload": "A I -> J", "faload": "A I -> F", "daload": "A I -> D",
	"aaload": "A I -> A", "baload": "A I -> I", "caload": "A I -> I", "saload": "A I -> I",
	"iastore": "A I I ->", "lastore": "A I J ->", "fastore": "A I F ->", "dastore": "A I D ->",
	"aastore": "A I A ->", "bastore": "A I I ->", "castore": "A I I ->", "sastore": "A I I ->",
	"pop": "X ->", "pop2": "X X ->",
	"iadd": "I I -> I", "ladd": "J J -> J", "fadd": "F F -> F", "dadd": "D D -> D",
	"isub": "I I -> I", "lsub": "J J -> J", "fsub": "F F -> F", "dsub": "D D -> D",
	"imul": "I I -> I", "lmul": "J J -> J", "fmul": "F F -> F", "dmul": "D D -> D",
	"idiv": "I I -> I", "ldiv": "J J -> J", "fdiv": "F F -> F", "ddiv": "D D -> D",
	"irem": "I I -> I", "lrem": "J J -> J", "frem": "F F -> F", "drem": "D D -> D",
	"ineg": "I -> I", "lneg": "J -> J", "fneg": "F -> F", "dneg": "D -> D",
	"ishl": "I I -> I", "lshl": "J I -> J", "ishr": "I I -> I", "lshr": "J I -> J", "iushr": "I I -> I", "lushr": "J I -> J",
	"iand": "I I -> I", "land": "J J -> J", "ior": "I I -> I", "lor": "J J -> J", "ixor": "I I -> I", "lxor": "J J -> J",
	"i2l": "I -> J", "i2f": "I -> F", "i2d": "I -> D", "l2i": "J -> I", "l2f": "J -> F", "l2d": "J -> D",
	"f2i": "F -> I", "f2l": "F -> J", "f2d": "F -> D", "d2i": "D -> I", "d2l": "D -> J", "d2f": "D -> F",
	"i2b": "I -> I", "i2c": "I -> I", "i2s": "I -> I",
	"lcmp": "J J -> I", "fcmpl": "F F -> I", "fcmpg": "F F -> I", "dcmpl": "D D -> I", "dcmpg": "D D -> I",
	"ifeq": "I ->", "ifne": "I ->", "iflt": "I ->", "ifge": "I ->", "ifgt": "I ->", "ifle": "I ->",
	"if_icmpeq": "I I ->", "if_icmpne": "I I ->", "if_icmplt": "I I ->", "if_icmpge": "I I ->", "if_icmpgt": "I I ->", "if_icmple": "I I ->",
	"if_acmpeq": "A A ->", "if_acmpne": "A A ->", "ifnull": "A ->", "ifnonnull": "A ->",
	"jsr": "-> R", "jsr_w": "-> R",
	"tableswitch": "I ->", "lookupswitch": "I ->",
	"ireturn": "I ->", "lreturn": "J ->", "freturn": "F ->", "dreturn": "D ->", "areturn": "A ->",
	"new": "-> A", "newarray": "I -> A", "anewarray": "I -> A", "arraylength": "A -> I",
	"checkcast": "A -> A", "instanceof": "A -> I",
	"monitorenter": "A ->", "monitorexit": "A ->",
	// The handler's stack, not athrow's: control leaves with the reference.
	"athrow": "A ->",
}

func slotsOf(types string) int {
	n := 0
	for _, t := range strings.Fields(types) {
		n++
		if t == "J" || t == "D" {
			n++
		}
	}
	return n
}

// TestStackEffectsAreTheSpecs: every opcode's effect is its form's slots;
// every other opcode (references loaded and stored, the other stores, the
// dup family, fields, calls, multianewarray, wide) has none.
func TestStackEffectsAreTheSpecs(t *testing.T) {
	seen := 0
	for op := range 256 {
		o := Opcode(op)
		if !o.Defined() {
			if _, _, ok := o.StackEffect(); ok {
				t.Errorf("0x%02x is not an opcode, yet has an effect", op)
			}
			continue
		}
		pop, push, ok := o.StackEffect()
		form, listed := stackForms[o.String()]
		if !listed {
			if ok {
				t.Errorf("%s: effect %d -> %d, want none (it depends on more than the opcode)", o, pop, push)
			}
			continue
		}
		seen++
		before, after, _ := strings.Cut(form, "->")
		if !ok || pop != slotsOf(before) || push != slotsOf(after) {
			t.Errorf("%s: effect %d -> %d (ok %v), want %d -> %d (%s)", o, pop, push, ok, slotsOf(before), slotsOf(after), form)
		}
	}
	if seen != len(stackForms) {
		t.Errorf("%d of the %d forms name an opcode", seen, len(stackForms))
	}
}
