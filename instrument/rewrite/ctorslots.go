package rewrite

import (
	"fmt"

	cf "github.com/tracebeat/tracebeat/classfile"
)

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
	if pop, push, ok := op.StackEffect(); ok {
		if err := s.pop(pop); err != nil {
			return false, err
		}
		s.push(false, push)
		return false, nil
	}
	switch {
	case op == cf.ALOAD || (op >= cf.ALOAD_0 && op <= cf.ALOAD_3):
		idx := int(in.A)
		if op != cf.ALOAD {
			idx = int(op - cf.ALOAD_0)
		}
		if idx >= len(s.locals) {
			return false, fmt.Errorf("aload %d out of range", idx)
		}
		s.push(s.locals[idx], 1)
	case op >= cf.ISTORE && op <= cf.ASTORE || op >= cf.ISTORE_0 && op <= cf.ASTORE_3:
		var idx, size int
		var kind cf.Opcode
		if op <= cf.ASTORE {
			idx, kind = int(in.A), op-cf.ISTORE
		} else {
			idx, kind = int(op-cf.ISTORE_0)%4, (op-cf.ISTORE_0)/4
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
	case op >= cf.DUP && op <= cf.SWAP:
		return false, dupFamily(s, op)
	case op >= cf.GETSTATIC && op <= cf.PUTFIELD:
		ref, err := refs.ref(uint16(in.A))
		if err != nil {
			return false, err
		}
		n, err := cf.FieldSlots(ref.desc)
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
			if params, ret, err = cf.MethodSlots(ref.desc); err != nil {
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
		return false, fmt.Errorf("opcode 0x%02x has no stack effect", uint8(op))
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

// dupShapes gives, for dup..swap (cf.DUP..cf.SWAP), how many top slots the
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
func dupFamily(s *slotState, op cf.Opcode) error {
	shape := dupShapes[op-cf.DUP]
	n := len(s.stack)
	if n < shape.need {
		return fmt.Errorf("stack underflow at %s", op)
	}
	var top [4]bool
	copy(top[:], s.stack[n-shape.need:])
	s.stack = s.stack[:n-shape.need]
	for _, i := range shape.order {
		s.stack = append(s.stack, top[i])
	}
	return nil
}
