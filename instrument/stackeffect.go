package instrument

import (
	"fmt"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// simpleEffect holds the slot counts popped and pushed by opcodes whose
// effect does not depend on operands or on what the slots hold. -1 marks
// opcodes handled case by case in step.
var simpleEffect [256]struct{ pop, push int8 }

func init() {
	set := func(pop, push int8, ops ...int) {
		for _, op := range ops {
			simpleEffect[op] = struct{ pop, push int8 }{pop, push}
		}
	}
	for op := range simpleEffect {
		simpleEffect[op] = struct{ pop, push int8 }{-1, -1}
	}
	rng := func(from, to int) []int {
		var r []int
		for op := from; op <= to; op++ {
			r = append(r, op)
		}
		return r
	}
	set(0, 0, 0x00, 0x84, 0xa7, 0xc8) // nop, iinc, goto, goto_w
	set(0, 1, 0x01)                   // aconst_null
	set(0, 1, rng(0x02, 0x08)...)     // iconst
	set(0, 2, 0x09, 0x0a, 0x0e, 0x0f) // lconst, dconst
	set(0, 1, 0x0b, 0x0c, 0x0d, 0x10, 0x11, 0x12, 0x13)
	set(0, 2, 0x14)
	set(0, 1, 0x15, 0x17)         // iload, fload
	set(0, 2, 0x16, 0x18)         // lload, dload
	set(0, 1, rng(0x1a, 0x1d)...) // iload_n
	set(0, 2, rng(0x1e, 0x21)...) // lload_n
	set(0, 1, rng(0x22, 0x25)...) // fload_n
	set(0, 2, rng(0x26, 0x29)...) // dload_n
	set(2, 1, 0x2e, 0x30, 0x32, 0x33, 0x34, 0x35)
	set(2, 2, 0x2f, 0x31)
	set(3, 0, 0x4f, 0x51, 0x53, 0x54, 0x55, 0x56)
	set(4, 0, 0x50, 0x52)
	set(1, 0, 0x57)
	set(2, 0, 0x58)
	for op := 0x60; op <= 0x73; op += 4 { // add, sub, mul, div, rem
		set(2, 1, op)
		set(4, 2, op+1)
		set(2, 1, op+2)
		set(4, 2, op+3)
	}
	set(1, 1, 0x74, 0x76)
	set(2, 2, 0x75, 0x77)
	set(2, 1, 0x78, 0x7a, 0x7c) // int shifts
	set(3, 2, 0x79, 0x7b, 0x7d) // long shifts
	set(2, 1, 0x7e, 0x80, 0x82)
	set(4, 2, 0x7f, 0x81, 0x83)
	set(1, 2, 0x85, 0x87, 0x8c, 0x8d)       // i2l i2d f2l f2d
	set(1, 1, 0x86, 0x8b, 0x91, 0x92, 0x93) // i2f f2i i2b i2c i2s
	set(2, 1, 0x88, 0x89, 0x8e, 0x90)       // l2i l2f d2i d2f
	set(2, 2, 0x8a, 0x8f)                   // l2d d2l
	set(4, 1, 0x94, 0x97, 0x98)
	set(2, 1, 0x95, 0x96)
	set(1, 0, rng(0x99, 0x9e)...)
	set(2, 0, rng(0x9f, 0xa6)...)
	set(0, 1, 0xa8, 0xc9) // jsr, jsr_w push a return address
	set(0, 0, 0xa9)       // ret
	set(1, 0, 0xaa, 0xab) // switches
	set(1, 0, 0xac, 0xae, 0xb0)
	set(2, 0, 0xad, 0xaf)
	set(0, 0, 0xb1)
	set(0, 1, 0xbb)             // new
	set(1, 1, 0xbc, 0xbd, 0xbe) // newarray, anewarray, arraylength
	set(1, 0, 0xbf)             // athrow
	set(1, 1, 0xc0, 0xc1)       // checkcast, instanceof
	set(1, 0, 0xc2, 0xc3)       // monitorenter/exit
	set(1, 0, 0xc6, 0xc7)       // ifnull, ifnonnull
}

// slotState tracks, for each local and stack slot, whether it may hold
// uninitializedThis, and the verifier's flagThisUninit.
type slotState struct {
	flag   bool
	locals []bool
	stack  []bool
}

// join merges o into s (may-hold semantics) and reports whether s grew.
func (s *slotState) join(o *slotState) (bool, error) {
	if len(s.stack) != len(o.stack) {
		return false, fmt.Errorf("stack heights %d and %d meet", len(s.stack), len(o.stack))
	}
	grew := false
	if o.flag && !s.flag {
		s.flag, grew = true, true
	}
	for i := range s.locals {
		if i < len(o.locals) && o.locals[i] && !s.locals[i] {
			s.locals[i], grew = true, true
		}
	}
	for i := range s.stack {
		if o.stack[i] && !s.stack[i] {
			s.stack[i], grew = true, true
		}
	}
	return grew, nil
}

func (s *slotState) push(v bool, n int) {
	for ; n > 0; n-- {
		s.stack = append(s.stack, v)
	}
}

func (s *slotState) pop(n int) error {
	if n > len(s.stack) {
		return fmt.Errorf("stack underflow: pop %d of %d", n, len(s.stack))
	}
	s.stack = s.stack[:len(s.stack)-n]
	return nil
}

func (s *slotState) setLocal(i int, v bool) error {
	if i < 0 || i >= len(s.locals) {
		return fmt.Errorf("local %d out of range (max_locals %d)", i, len(s.locals))
	}
	s.locals[i] = v
	return nil
}

// step applies one instruction to s. initThis is set when the instruction
// is an invokespecial <init> whose receiver may be uninitializedThis.
func step(s *slotState, in *cf.Insn, refs *refCache) (initThis bool, err error) {
	op := in.Op
	if e := simpleEffect[op]; e.pop >= 0 {
		if err := s.pop(int(e.pop)); err != nil {
			return false, err
		}
		s.push(false, int(e.push))
		return false, nil
	}
	switch {
	case op == cf.ALOAD || (op >= 0x2a && op <= 0x2d):
		idx := int(in.A)
		if op != cf.ALOAD {
			idx = int(op - 0x2a)
		}
		if idx >= len(s.locals) {
			return false, fmt.Errorf("aload %d out of range", idx)
		}
		s.push(s.locals[idx], 1)
	case op >= cf.ISTORE && op <= cf.ASTORE || op >= 0x3b && op <= 0x4e:
		var idx, size int
		var kind uint8
		if op <= cf.ASTORE {
			idx, kind = int(in.A), op-cf.ISTORE
		} else {
			idx, kind = int(op-0x3b)%4, (op-0x3b)/4
		}
		size = 1
		if kind == 1 || kind == 3 { // long, double
			size = 2
		}
		if len(s.stack) < size {
			return false, fmt.Errorf("stack underflow at store")
		}
		v := s.stack[len(s.stack)-1] && size == 1
		s.stack = s.stack[:len(s.stack)-size]
		for k := 0; k < size; k++ {
			if err := s.setLocal(idx+k, v); err != nil {
				return false, err
			}
		}
	case op >= cf.DUP && op <= 0x5f:
		return false, dupFamily(s, op)
	case op >= cf.GETSTATIC && op <= cf.PUTFIELD:
		ref, err := refs.ref(uint16(in.A))
		if err != nil {
			return false, err
		}
		n, err := fieldSlots(ref.desc)
		if err != nil {
			return false, err
		}
		switch op {
		case cf.GETSTATIC:
			s.push(false, n)
		case cf.PUTSTATIC:
			return false, s.pop(n)
		case cf.GETFIELD:
			if err := s.pop(1); err != nil {
				return false, err
			}
			s.push(false, n)
		case cf.PUTFIELD:
			return false, s.pop(n + 1)
		}
	case op >= cf.INVOKEVIRTUAL && op <= cf.INVOKEDYNAMIC:
		var params, ret int
		isInit := false
		if op == cf.INVOKEDYNAMIC {
			pool := refs.pool
			if pool.Tag(uint16(in.A)) != cf.TagInvokeDynamic {
				return false, fmt.Errorf("invokedynamic operand is not an InvokeDynamic constant")
			}
			_, desc, err := indyNameAndType(pool, uint16(in.A))
			if err != nil {
				return false, err
			}
			if params, ret, err = cf.MethodSlots(desc); err != nil {
				return false, err
			}
		} else {
			ref, err := refs.ref(uint16(in.A))
			if err != nil {
				return false, err
			}
			if params, ret, err = methodSlots(ref.desc); err != nil {
				return false, err
			}
			isInit = ref.isInit
		}
		if err := s.pop(params); err != nil {
			return false, err
		}
		if op != cf.INVOKESTATIC && op != cf.INVOKEDYNAMIC {
			if len(s.stack) == 0 {
				return false, fmt.Errorf("stack underflow at invoke receiver")
			}
			recv := s.stack[len(s.stack)-1]
			s.stack = s.stack[:len(s.stack)-1]
			if op == cf.INVOKESPECIAL && isInit && recv {
				initThis = true
				s.flag = false
				for i := range s.locals {
					s.locals[i] = false
				}
				for i := range s.stack {
					s.stack[i] = false
				}
			}
		}
		s.push(false, ret)
	case op == cf.MULTIANEWARRAY:
		if err := s.pop(int(in.B)); err != nil {
			return false, err
		}
		s.push(false, 1)
	default:
		return false, fmt.Errorf("opcode 0x%02x has no stack effect", op)
	}
	return initThis, nil
}

func indyNameAndType(pool *cf.ConstantPool, idx uint16) (string, string, error) {
	// InvokeDynamic: u2 bootstrap index, u2 name-and-type index.
	nt, err := pool.IndyNameAndType(idx)
	if err != nil {
		return "", "", err
	}
	return pool.NameAndType(nt)
}

// dupShapes gives, for dup..swap (0x59..0x5f), how many top slots the
// instruction takes and the order (bottom first, indices into those slots)
// in which it puts them back.
var dupShapes = [7]struct {
	need  int
	order []int
}{
	{1, []int{0, 0}},             // dup: a -> a a
	{2, []int{1, 0, 1}},          // dup_x1: b a -> a b a
	{3, []int{2, 0, 1, 2}},       // dup_x2: c b a -> a c b a
	{2, []int{0, 1, 0, 1}},       // dup2: b a -> b a b a
	{3, []int{1, 2, 0, 1, 2}},    // dup2_x1: c b a -> b a c b a
	{4, []int{2, 3, 0, 1, 2, 3}}, // dup2_x2: d c b a -> b a d c b a
	{2, []int{1, 0}},             // swap: b a -> a b
}

// dupFamily applies dup, dup_x1, dup_x2, dup2, dup2_x1, dup2_x2 and swap
// at the level of slots, which is exact whatever the slots hold.
func dupFamily(s *slotState, op uint8) error {
	shape := dupShapes[op-cf.DUP]
	n := len(s.stack)
	if n < shape.need {
		return fmt.Errorf("stack underflow at %s", cf.OpcodeName(op))
	}
	var top [4]bool
	copy(top[:], s.stack[n-shape.need:])
	s.stack = s.stack[:n-shape.need]
	for _, i := range shape.order {
		s.stack = append(s.stack, top[i])
	}
	return nil
}

// methodSlots is cf.MethodSlots on a descriptor's raw bytes, without
// making a string of them; a descriptor it does not accept goes to
// cf.MethodSlots, which names the problem.
func methodSlots(desc []byte) (params, ret int, err error) {
	if len(desc) == 0 || desc[0] != '(' {
		return cf.MethodSlots(string(desc))
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		n, next := typeSlots(desc, i)
		if n == 0 {
			return cf.MethodSlots(string(desc))
		}
		params += n
		i = next
	}
	if i >= len(desc) {
		return cf.MethodSlots(string(desc))
	}
	i++
	if i+1 == len(desc) && desc[i] == 'V' {
		return params, 0, nil
	}
	ret, next := typeSlots(desc, i)
	if ret == 0 || next != len(desc) {
		return cf.MethodSlots(string(desc))
	}
	return params, ret, nil
}

// fieldSlots is cf.FieldSlots on a descriptor's raw bytes.
func fieldSlots(desc []byte) (int, error) {
	n, next := typeSlots(desc, 0)
	if n == 0 || next != len(desc) {
		return cf.FieldSlots(string(desc))
	}
	return n, nil
}

// typeSlots parses one field type at desc[i:] and returns its slot count
// (0 when malformed) and the index after it.
func typeSlots(desc []byte, i int) (slots, next int) {
	start := i
	for i < len(desc) && desc[i] == '[' {
		i++
	}
	if i >= len(desc) {
		return 0, 0
	}
	switch desc[i] {
	case 'B', 'C', 'F', 'I', 'S', 'Z':
		return 1, i + 1
	case 'J', 'D':
		if i > start { // an array is one reference
			return 1, i + 1
		}
		return 2, i + 1
	case 'L':
		for j := i + 1; j < len(desc); j++ {
			if desc[j] == ';' {
				if j == i+1 {
					break
				}
				return 1, j + 1
			}
		}
	}
	return 0, 0
}
