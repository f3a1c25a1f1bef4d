package classfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"
)

// Encode lays the code out and returns the body of the Code attribute.
func (c *Code) Encode() ([]byte, error) {
	lo := getEncodeScratch()
	defer putEncodeScratch(lo)
	codeLen, err := c.layout(lo)
	if err != nil {
		return nil, err
	}
	// +8: the slack appendInsns's fast path writes into. The buffer is
	// carved from the pooled slab: one allocation serves many methods.
	buf := lo.out.take(8 + codeLen + c.tailSizeBound() + 8)
	return c.appendLaidOut(buf[:0], lo, codeLen)
}

// AppendTo appends the encoded Code attribute body to dst.
func (c *Code) AppendTo(dst []byte) ([]byte, error) {
	lo := getEncodeScratch()
	defer putEncodeScratch(lo)
	codeLen, err := c.layout(lo)
	if err != nil {
		return nil, err
	}
	return c.appendLaidOut(dst, lo, codeLen)
}

// tailSizeBound bounds the encoded size of what follows the code array
// (exact except for frames, whose short forms depend on offsets), so that
// Encode allocates once.
func (c *Code) tailSizeBound() int {
	n := 2 + 8*len(c.Handlers) + 2
	for i := range c.Attributes {
		a := &c.Attributes[i]
		n += 6
		switch a.Kind {
		case AttrRaw:
			n += len(a.Raw)
		case AttrStackMapTable:
			n += 2
			for j := range a.Frames {
				n += 7 + 3*(len(a.Frames[j].Locals)+len(a.Frames[j].Stack))
			}
		case AttrLineNumberTable:
			n += 2 + 4*len(a.Lines)
		case AttrLocalVariableTable, AttrLocalVariableTypeTable:
			n += 2 + 10*len(a.Locals)
		case AttrVisibleTypeAnnotations, AttrInvisibleTypeAnnotations:
			n += 2
			for j := range a.TypeAnnotations {
				ta := &a.TypeAnnotations[j]
				n += 6 + 6*len(ta.Ranges) + len(ta.Rest)
			}
		}
	}
	return n
}

// encodeScratch is the pooled state of one Encode/AppendTo/Offsets call:
// the offset of every label once laid out, and the slab Encode carves its
// results from.
type encodeScratch struct {
	offs []int32 // offs[l] = offset of label l plus one; 0 means not placed
	err  error   // the first use of an unplaced label
	// out is where Encode carves its results from; see slab for why a
	// result never shares memory with another.
	out slab[byte]
}

var encodePool = sync.Pool{New: func() any { return new(encodeScratch) }}

func getEncodeScratch() *encodeScratch { return encodePool.Get().(*encodeScratch) }

func putEncodeScratch(lo *encodeScratch) {
	lo.err = nil
	encodePool.Put(lo)
}

// at returns the offset of label l, recording an error (and returning 0)
// when l is not placed.
func (lo *encodeScratch) at(l Label) int {
	if l <= NoLabel || int(l) >= len(lo.offs) || lo.offs[l] == 0 {
		lo.unplaced(l)
		return 0
	}
	return int(lo.offs[l]) - 1
}

func (lo *encodeScratch) unplaced(l Label) {
	if lo.err == nil {
		lo.err = fmt.Errorf("label %d is used but not placed", l)
	}
}

// insnSize returns the encoded size of in when it starts at off.
func insnSize(in *Insn, sw []Switch, off int) int {
	switch opInfo[in.Op].kind {
	case opNone:
		return 1
	case opLocal, opCP1, opIinc:
		return widenedSize(in)
	case opByte, opAType:
		return 2
	case opShort, opCP2, opBranch2:
		return 3
	case opBranch4, opInvokeInterface, opInvokeDynamic:
		return 5
	case opMultiANewArray:
		return 4
	case opTableSwitch:
		return 1 + padding(off) + 12 + 4*len(sw[in.A].Targets)
	case opLookupSwitch:
		return 1 + padding(off) + 8 + 8*len(sw[in.A].Targets)
	}
	return 1
}

// layout assigns an offset to every label (into lo) and returns the code
// length.
func (c *Code) layout(lo *encodeScratch) (int, error) {
	n := c.NumLabels()
	if cap(lo.offs) < n {
		lo.offs = make([]int32, n)
	}
	offs := lo.offs[:n]
	clear(offs)
	lo.offs = offs
	off := 0
	for i := range c.Insns {
		in := &c.Insns[i]
		if in.Mark != NoLabel {
			if int(in.Mark) >= len(offs) || offs[in.Mark] != 0 {
				return 0, fmt.Errorf("instruction %d: label %d placed twice or never allocated", i, in.Mark)
			}
			offs[in.Mark] = int32(off) + 1
		}
		// Table first: most opcodes have one size, and a jump on the
		// operand kind of every instruction mispredicts often.
		size := int(layoutSize[in.Op])
		if mayWiden[in.Op] {
			size = widenedSize(in)
		} else if size == 0 {
			var err error
			if size, err = c.variableSize(i, off); err != nil {
				return 0, err
			}
		}
		off += size
		if off > 65535 {
			return 0, fmt.Errorf("code passes 65535 bytes: %w", ErrCodeTooLarge)
		}
	}
	if off == 0 {
		return 0, fmt.Errorf("code is empty")
	}
	if c.End != NoLabel {
		if int(c.End) >= len(offs) || offs[c.End] != 0 {
			return 0, fmt.Errorf("end label %d placed twice or never allocated", c.End)
		}
		offs[c.End] = int32(off) + 1
	}
	return off, nil
}

// layoutSize is the encoded size of each opcode in its short form, 0 for
// opcodes whose size is not fixed (switches) or that are invalid here.
// mayWiden marks the opcodes whose operands can force a longer form.
// Both are filled by initLayoutTables, from the opcode table's init.
var (
	layoutSize [256]uint8
	mayWiden   [256]bool
)

func initLayoutTables() {
	for op := range layoutSize {
		switch k := opKind[op]; k {
		case opInvalid, opWide, opTableSwitch, opLookupSwitch:
		default:
			layoutSize[op] = kindSize[k]
			mayWiden[op] = k == opLocal || k == opCP1 || k == opIinc
		}
		switch k := opKind[op]; k {
		case opNone, opLocal, opByte, opAType, opCP1, opIinc:
			plainForm[op] = true
		case opShort, opCP2, opMultiANewArray, opInvokeInterface:
			plainForm[op], wideOperand[op] = true, true
		}
	}
}

// widenedSize returns the size of a local-variable, ldc or iinc
// instruction, whose form depends on its operands.
func widenedSize(in *Insn) int {
	switch opKind[in.Op] {
	case opLocal:
		if in.Wide || in.A > 0xFF {
			return 4
		}
		return 2
	case opCP1:
		if in.A > 0xFF {
			return 3 // widened to ldc_w
		}
		return 2
	default: // iinc
		if in.Wide || in.A > 0xFF || in.B < math.MinInt8 || in.B > math.MaxInt8 {
			return 6
		}
		return 3
	}
}

// variableSize checks instruction i, an invalid opcode or a switch, and
// returns its size at off.
func (c *Code) variableSize(i, off int) (int, error) {
	in := &c.Insns[i]
	switch opInfo[in.Op].kind {
	case opInvalid, opWide:
		return 0, fmt.Errorf("instruction %d: invalid opcode 0x%02X", i, uint8(in.Op))
	case opTableSwitch, opLookupSwitch:
		if in.A < 0 || int(in.A) >= len(c.Switches) {
			return 0, fmt.Errorf("instruction %d: switch index %d out of range", i, in.A)
		}
	}
	return insnSize(in, c.Switches, off), nil
}

// appendLaidOut appends the encoded body to dst once layout has filled lo.
func (c *Code) appendLaidOut(dst []byte, lo *encodeScratch, codeLen int) ([]byte, error) {
	var err error
	dst = binary.BigEndian.AppendUint16(dst, c.MaxStack)
	dst = binary.BigEndian.AppendUint16(dst, c.MaxLocals)
	dst = binary.BigEndian.AppendUint32(dst, uint32(codeLen))
	base := len(dst)
	dst = slices.Grow(dst, codeLen+8) // +8: see the fast path of appendInsns
	if dst, err = c.appendInsns(dst, lo); err != nil {
		return nil, err
	}
	if lo.err != nil {
		return nil, lo.err
	}
	if len(dst)-base != codeLen {
		return nil, fmt.Errorf("internal error: laid out %d bytes, wrote %d", codeLen, len(dst)-base)
	}
	if len(c.Handlers) > 0xFFFF {
		return nil, fmt.Errorf("too many exception handlers (%d)", len(c.Handlers))
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(c.Handlers)))
	for _, h := range c.Handlers {
		s, e := lo.at(h.Start), lo.at(h.End)
		if s >= e {
			return nil, fmt.Errorf("exception range [%d, %d) is empty", s, e)
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(s))
		dst = binary.BigEndian.AppendUint16(dst, uint16(e))
		dst = binary.BigEndian.AppendUint16(dst, uint16(lo.at(h.Handler)))
		dst = binary.BigEndian.AppendUint16(dst, h.CatchType)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(c.Attributes)))
	for i := range c.Attributes {
		if dst, err = c.Attributes[i].appendTo(dst, lo); err != nil {
			return nil, err
		}
	}
	if lo.err != nil {
		return nil, lo.err
	}
	return dst, nil
}

func (c *Code) appendInsns(dst []byte, lo *encodeScratch) ([]byte, error) {
	base := len(dst)
	for i := range c.Insns {
		in := &c.Insns[i]
		op := uint8(in.Op)
		if plainForm[op] && cap(dst)-len(dst) >= 8 && (!mayWiden[op] || widenedSize(in) == int(layoutSize[op])) {
			// Plain form: the opcode, then A in one or two bytes, then B
			// in one byte, cut to the opcode's size. Writing all eight
			// bytes of a word into the spare capacity (appendLaidOut
			// reserves it) and keeping size of them costs one store and
			// no jump on the operand kind, which mispredicts on nearly
			// every instruction of real code.
			n := len(dst)
			w := uint64(op) << 56
			if wideOperand[op] {
				w |= uint64(uint16(in.A))<<40 | uint64(uint8(in.B))<<32
			} else {
				w |= uint64(uint8(in.A))<<48 | uint64(uint8(in.B))<<40
			}
			binary.BigEndian.PutUint64(dst[n:n+8], w)
			dst = dst[:n+int(layoutSize[op])]
			continue
		}
		off := len(dst) - base
		switch opKind[op] {
		case opNone:
			dst = append(dst, op)
		case opLocal:
			if in.Wide || in.A > 0xFF {
				dst = append(dst, WIDE, op)
				dst = binary.BigEndian.AppendUint16(dst, uint16(in.A))
			} else {
				dst = append(dst, op, byte(in.A))
			}
		case opByte, opAType:
			dst = append(dst, op, byte(in.A))
		case opCP1:
			if in.A > 0xFF {
				dst = append(dst, LDC_W)
				dst = binary.BigEndian.AppendUint16(dst, uint16(in.A))
			} else {
				dst = append(dst, op, byte(in.A))
			}
		case opShort, opCP2:
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint16(dst, uint16(in.A))
		case opIinc:
			if in.Wide || in.A > 0xFF || in.B < math.MinInt8 || in.B > math.MaxInt8 {
				dst = append(dst, WIDE, op)
				dst = binary.BigEndian.AppendUint16(dst, uint16(in.A))
				dst = binary.BigEndian.AppendUint16(dst, uint16(int16(in.B)))
			} else {
				dst = append(dst, op, byte(in.A), byte(int8(in.B)))
			}
		case opBranch2:
			delta := lo.at(in.Target) - off
			if delta < math.MinInt16 || delta > math.MaxInt16 {
				return nil, fmt.Errorf("%s at offset %d: target offset %+d does not fit 16 bits: %w", opInfo[op].name, off, delta, ErrBranchOverflow)
			}
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint16(dst, uint16(int16(delta)))
		case opBranch4:
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(lo.at(in.Target)-off)))
		case opInvokeInterface:
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint16(dst, uint16(in.A))
			dst = append(dst, byte(in.B), 0)
		case opInvokeDynamic:
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint16(dst, uint16(in.A))
			dst = append(dst, 0, 0)
		case opMultiANewArray:
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint16(dst, uint16(in.A))
			dst = append(dst, byte(in.B))
		case opTableSwitch, opLookupSwitch:
			sw := &c.Switches[in.A]
			dst = append(dst, op)
			for p := padding(off); p > 0; p-- {
				dst = append(dst, 0)
			}
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(lo.at(sw.Default)-off)))
			if op == TABLESWITCH {
				dst = binary.BigEndian.AppendUint32(dst, uint32(sw.Low))
				dst = binary.BigEndian.AppendUint32(dst, uint32(sw.Low+int32(len(sw.Targets))-1))
				for _, t := range sw.Targets {
					dst = binary.BigEndian.AppendUint32(dst, uint32(int32(lo.at(t)-off)))
				}
			} else {
				if len(sw.Keys) != len(sw.Targets) {
					return nil, fmt.Errorf("lookupswitch at offset %d: %d keys, %d targets", off, len(sw.Keys), len(sw.Targets))
				}
				dst = binary.BigEndian.AppendUint32(dst, uint32(len(sw.Keys)))
				for j, k := range sw.Keys {
					dst = binary.BigEndian.AppendUint32(dst, uint32(k))
					dst = binary.BigEndian.AppendUint32(dst, uint32(int32(lo.at(sw.Targets[j])-off)))
				}
			}
		}
	}
	return dst, nil
}

// plainForm marks the opcodes that appendInsns encodes on its fast path:
// those without label operands, in their short form. wideOperand marks those among them
// whose first operand is two bytes. Both are filled by initLayoutTables.
var plainForm, wideOperand [256]bool

// appendTo encodes one attribute of the Code attribute.
func (a *CodeAttribute) appendTo(dst []byte, lo *encodeScratch) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, a.Name)
	lenPos := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var err error
	switch a.Kind {
	case AttrRaw:
		dst = append(dst, a.Raw...)
	case AttrStackMapTable:
		if dst, err = appendFrames(dst, a.Frames, lo); err != nil {
			return nil, err
		}
	case AttrLineNumberTable:
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(a.Lines)))
		for _, ln := range a.Lines {
			dst = binary.BigEndian.AppendUint16(dst, uint16(lo.at(ln.Start)))
			dst = binary.BigEndian.AppendUint16(dst, ln.Line)
		}
	case AttrLocalVariableTable, AttrLocalVariableTypeTable:
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(a.Locals)))
		for _, v := range a.Locals {
			s := lo.at(v.Start)
			dst = binary.BigEndian.AppendUint16(dst, uint16(s))
			dst = binary.BigEndian.AppendUint16(dst, uint16(lo.at(v.End)-s))
			dst = binary.BigEndian.AppendUint16(dst, v.Name)
			dst = binary.BigEndian.AppendUint16(dst, v.Descriptor)
			dst = binary.BigEndian.AppendUint16(dst, v.Index)
		}
	case AttrVisibleTypeAnnotations, AttrInvisibleTypeAnnotations:
		dst = appendTypeAnnotations(dst, a.TypeAnnotations, lo)
	}
	binary.BigEndian.PutUint32(dst[lenPos:], uint32(len(dst)-lenPos-4))
	return dst, nil
}

func appendFrames(dst []byte, frames []Frame, lo *encodeScratch) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(frames)))
	prev := -1
	for i := range frames {
		f := &frames[i]
		off := lo.at(f.At)
		delta := off - prev - 1
		if delta < 0 {
			return nil, fmt.Errorf("stack map frame %d at offset %d does not follow the previous frame at %d", i, off, prev)
		}
		if delta > 0xFFFF {
			return nil, fmt.Errorf("stack map frame %d: offset delta %d too large", i, delta)
		}
		prev = off
		switch f.Kind {
		case FrameSame:
			if delta <= 63 {
				dst = append(dst, byte(delta))
			} else {
				dst = append(dst, 251)
				dst = binary.BigEndian.AppendUint16(dst, uint16(delta))
			}
		case FrameSameExtended:
			dst = append(dst, 251)
			dst = binary.BigEndian.AppendUint16(dst, uint16(delta))
		case FrameSameLocals1, FrameSameLocals1Extended:
			if len(f.Stack) != 1 {
				return nil, fmt.Errorf("stack map frame %d: same_locals_1_stack_item needs one stack item, has %d", i, len(f.Stack))
			}
			if f.Kind == FrameSameLocals1 && delta <= 63 {
				dst = append(dst, byte(64+delta))
			} else {
				dst = append(dst, 247)
				dst = binary.BigEndian.AppendUint16(dst, uint16(delta))
			}
			dst = appendVType(dst, f.Stack[0], lo)
		case FrameChop:
			if f.Chop < 1 || f.Chop > 3 {
				return nil, fmt.Errorf("stack map frame %d: chop of %d locals", i, f.Chop)
			}
			dst = append(dst, 251-f.Chop)
			dst = binary.BigEndian.AppendUint16(dst, uint16(delta))
		case FrameAppend:
			if len(f.Locals) < 1 || len(f.Locals) > 3 {
				return nil, fmt.Errorf("stack map frame %d: append of %d locals", i, len(f.Locals))
			}
			dst = append(dst, byte(251+len(f.Locals)))
			dst = binary.BigEndian.AppendUint16(dst, uint16(delta))
			for _, v := range f.Locals {
				dst = appendVType(dst, v, lo)
			}
		case FrameFull:
			dst = append(dst, 255)
			dst = binary.BigEndian.AppendUint16(dst, uint16(delta))
			dst = binary.BigEndian.AppendUint16(dst, uint16(len(f.Locals)))
			for _, v := range f.Locals {
				dst = appendVType(dst, v, lo)
			}
			dst = binary.BigEndian.AppendUint16(dst, uint16(len(f.Stack)))
			for _, v := range f.Stack {
				dst = appendVType(dst, v, lo)
			}
		default:
			return nil, fmt.Errorf("stack map frame %d: unknown kind %d", i, f.Kind)
		}
	}
	return dst, nil
}

func appendVType(dst []byte, v VType, lo *encodeScratch) []byte {
	dst = append(dst, v.Tag)
	switch v.Tag {
	case VObject:
		dst = binary.BigEndian.AppendUint16(dst, v.Class)
	case VUninitialized:
		dst = binary.BigEndian.AppendUint16(dst, uint16(lo.at(v.New)))
	}
	return dst
}

// Offsets lays the code out as Encode would and returns the byte offset of
// every instruction, and of every placed label (-1 for labels not placed),
// for tools that show code by offset.
func (c *Code) Offsets() (insns []int, labels []int, err error) {
	lo := getEncodeScratch()
	defer putEncodeScratch(lo)
	if _, err := c.layout(lo); err != nil {
		return nil, nil, err
	}
	offs := lo.offs
	insns = make([]int, len(c.Insns))
	off := 0
	for i := range c.Insns {
		insns[i] = off
		off += insnSize(&c.Insns[i], c.Switches, off)
	}
	labels = make([]int, len(offs))
	for l, o := range offs {
		labels[l] = int(o) - 1 // layout stores offset+1, 0 for unplaced
	}
	return insns, labels, nil
}
