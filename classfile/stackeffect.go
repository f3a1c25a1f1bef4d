package classfile

import "strings"

// stackEffect holds, for each opcode whose effect on the operand stack
// depends on the opcode alone, the slots it pops and pushes (a long or
// double is two slots); -1 for the rest (loads and stores of references,
// the dup family, field and method instructions, ldc, multianewarray,
// wide), whose effect needs operands or what the slots hold.
var stackEffect [256]struct{ pop, push int8 }

// StackEffect returns the slots op pops and pushes when that depends on
// the opcode alone; ok is false for the opcodes whose effect needs their
// operands (field and method instructions, ldc, multianewarray), the
// reference loads and stores a data-flow pass tracks by value (aload*,
// astore* and the other stores), and the dup family.
func (op Opcode) StackEffect() (pop, push int, ok bool) {
	e := stackEffect[op]
	return int(e.pop), int(e.push), e.pop >= 0
}

func initStackEffects() {
	for op := range stackEffect {
		stackEffect[op] = struct{ pop, push int8 }{-1, -1}
	}
	byName := map[string]int{}
	for op, info := range opInfo {
		if info.name != "" {
			byName[info.name] = op
		}
	}
	set := func(pop, push int8, names string) {
		for _, n := range strings.Fields(names) {
			op, ok := byName[n]
			if !ok {
				panic("classfile: stack effect of unknown opcode " + n)
			}
			stackEffect[op] = struct{ pop, push int8 }{pop, push}
		}
	}
	set(0, 0, "nop iinc goto goto_w ret return")
	set(0, 1, "aconst_null iconst_m1 iconst_0 iconst_1 iconst_2 iconst_3 iconst_4 iconst_5")
	set(0, 1, "fconst_0 fconst_1 fconst_2 bipush sipush ldc ldc_w")
	set(0, 2, "lconst_0 lconst_1 dconst_0 dconst_1 ldc2_w")
	set(0, 1, "iload fload iload_0 iload_1 iload_2 iload_3 fload_0 fload_1 fload_2 fload_3")
	set(0, 2, "lload dload lload_0 lload_1 lload_2 lload_3 dload_0 dload_1 dload_2 dload_3")
	set(2, 1, "iaload faload aaload baload caload saload")
	set(2, 2, "laload daload")
	set(3, 0, "iastore fastore aastore bastore castore sastore")
	set(4, 0, "lastore dastore")
	set(1, 0, "pop")
	set(2, 0, "pop2")
	set(2, 1, "iadd isub imul idiv irem fadd fsub fmul fdiv frem")
	set(4, 2, "ladd lsub lmul ldiv lrem dadd dsub dmul ddiv drem")
	set(1, 1, "ineg fneg")
	set(2, 2, "lneg dneg")
	set(2, 1, "ishl ishr iushr iand ior ixor")
	set(3, 2, "lshl lshr lushr")
	set(4, 2, "land lor lxor")
	set(1, 2, "i2l i2d f2l f2d")
	set(1, 1, "i2f f2i i2b i2c i2s")
	set(2, 1, "l2i l2f d2i d2f")
	set(2, 2, "l2d d2l")
	set(4, 1, "lcmp dcmpl dcmpg")
	set(2, 1, "fcmpl fcmpg")
	set(1, 0, "ifeq ifne iflt ifge ifgt ifle ifnull ifnonnull")
	set(2, 0, "if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple if_acmpeq if_acmpne")
	set(0, 1, "jsr jsr_w") // a return address
	set(1, 0, "tableswitch lookupswitch")
	set(1, 0, "ireturn freturn areturn")
	set(2, 0, "lreturn dreturn")
	set(0, 1, "new")
	set(1, 1, "newarray anewarray arraylength checkcast instanceof")
	set(1, 0, "athrow monitorenter monitorexit")
}
