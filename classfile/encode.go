package classfile

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Encode lays the code out and returns the body of the Code attribute.
func (c *Code) Encode() ([]byte, error) { return c.AppendTo(make([]byte, 0, c.sizeHint())) }

// sizeHint estimates the encoded size so that encoding allocates once.
func (c *Code) sizeHint() int {
	n := 12 + 3*len(c.Insns) + 8*len(c.Handlers)
	for _, sw := range c.Switches {
		n += 12 + 8*len(sw.Targets)
	}
	for i := range c.Attributes {
		a := &c.Attributes[i]
		n += 6 + len(a.Raw) + 4*len(a.Lines) + 10*len(a.Locals) + 16*len(a.TypeAnnotations)
		for j := range a.Frames {
			n += 7 + 3*(len(a.Frames[j].Locals)+len(a.Frames[j].Stack))
		}
	}
	return n
}

// insnSize returns the encoded size of in when it starts at off.
func insnSize(in *Insn, sw []Switch, off int) int {
	switch opInfo[in.Op].kind {
	case opNone:
		return 1
	case opLocal:
		if in.Wide || in.A > 0xFF {
			return 4
		}
		return 2
	case opByte, opAType:
		return 2
	case opCP1:
		if in.A > 0xFF {
			return 3 // widened to ldc_w
		}
		return 2
	case opShort, opCP2, opBranch2:
		return 3
	case opIinc:
		if in.Wide || in.A > 0xFF || in.B < math.MinInt8 || in.B > math.MaxInt8 {
			return 6
		}
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

// layout assigns an offset to every label and returns the code length.
func (c *Code) layout() ([]int32, int, error) {
	// offs[l] is the offset of label l plus one; 0 means not placed yet.
	offs := make([]int32, c.NumLabels())
	off := 0
	for i := range c.Insns {
		in := &c.Insns[i]
		if opInfo[in.Op].kind == opInvalid || opInfo[in.Op].kind == opWide {
			return nil, 0, fmt.Errorf("instruction %d: invalid opcode 0x%02X", i, in.Op)
		}
		if in.Mark != NoLabel {
			if int(in.Mark) >= len(offs) || offs[in.Mark] != 0 {
				return nil, 0, fmt.Errorf("instruction %d: label %d placed twice or never allocated", i, in.Mark)
			}
			offs[in.Mark] = int32(off) + 1
		}
		if k := opInfo[in.Op].kind; (k == opTableSwitch || k == opLookupSwitch) && (in.A < 0 || int(in.A) >= len(c.Switches)) {
			return nil, 0, fmt.Errorf("instruction %d: switch index %d out of range", i, in.A)
		}
		off += insnSize(in, c.Switches, off)
		if off > 65535 {
			return nil, 0, fmt.Errorf("code passes 65535 bytes: %w", ErrCodeTooLarge)
		}
	}
	if off == 0 {
		return nil, 0, fmt.Errorf("code is empty")
	}
	if c.End != NoLabel {
		if int(c.End) >= len(offs) || offs[c.End] != 0 {
			return nil, 0, fmt.Errorf("end label %d placed twice or never allocated", c.End)
		}
		offs[c.End] = int32(off) + 1
	}
	return offs, off, nil
}

// AppendTo appends the encoded Code attribute body to dst.
func (c *Code) AppendTo(dst []byte) ([]byte, error) {
	offs, codeLen, err := c.layout()
	if err != nil {
		return nil, err
	}
	var lerr error
	at := func(l Label) int {
		if l <= NoLabel || int(l) >= len(offs) || offs[l] == 0 {
			if lerr == nil {
				lerr = fmt.Errorf("label %d is used but not placed", l)
			}
			return 0
		}
		return int(offs[l]) - 1
	}
	dst = binary.BigEndian.AppendUint16(dst, c.MaxStack)
	dst = binary.BigEndian.AppendUint16(dst, c.MaxLocals)
	dst = binary.BigEndian.AppendUint32(dst, uint32(codeLen))
	base := len(dst)
	if dst, err = c.appendInsns(dst, at); err != nil {
		return nil, err
	}
	if lerr != nil {
		return nil, lerr
	}
	if len(dst)-base != codeLen {
		return nil, fmt.Errorf("internal error: laid out %d bytes, wrote %d", codeLen, len(dst)-base)
	}
	if len(c.Handlers) > 0xFFFF {
		return nil, fmt.Errorf("too many exception handlers (%d)", len(c.Handlers))
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(c.Handlers)))
	for _, h := range c.Handlers {
		s, e := at(h.Start), at(h.End)
		if s >= e {
			return nil, fmt.Errorf("exception range [%d, %d) is empty", s, e)
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(s))
		dst = binary.BigEndian.AppendUint16(dst, uint16(e))
		dst = binary.BigEndian.AppendUint16(dst, uint16(at(h.Handler)))
		dst = binary.BigEndian.AppendUint16(dst, h.CatchType)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(c.Attributes)))
	for i := range c.Attributes {
		if dst, err = c.Attributes[i].appendTo(dst, at); err != nil {
			return nil, err
		}
	}
	if lerr != nil {
		return nil, lerr
	}
	return dst, nil
}

func (c *Code) appendInsns(dst []byte, at func(Label) int) ([]byte, error) {
	base := len(dst)
	for i := range c.Insns {
		in := &c.Insns[i]
		off := len(dst) - base
		op := in.Op
		switch opInfo[op].kind {
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
			delta := at(in.Target) - off
			if delta < math.MinInt16 || delta > math.MaxInt16 {
				return nil, fmt.Errorf("%s at offset %d: target offset %+d does not fit 16 bits: %w", opInfo[op].name, off, delta, ErrBranchOverflow)
			}
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint16(dst, uint16(int16(delta)))
		case opBranch4:
			dst = append(dst, op)
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(at(in.Target)-off)))
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
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(at(sw.Default)-off)))
			if op == TABLESWITCH {
				dst = binary.BigEndian.AppendUint32(dst, uint32(sw.Low))
				dst = binary.BigEndian.AppendUint32(dst, uint32(sw.Low+int32(len(sw.Targets))-1))
				for _, t := range sw.Targets {
					dst = binary.BigEndian.AppendUint32(dst, uint32(int32(at(t)-off)))
				}
			} else {
				if len(sw.Keys) != len(sw.Targets) {
					return nil, fmt.Errorf("lookupswitch at offset %d: %d keys, %d targets", off, len(sw.Keys), len(sw.Targets))
				}
				dst = binary.BigEndian.AppendUint32(dst, uint32(len(sw.Keys)))
				for j, k := range sw.Keys {
					dst = binary.BigEndian.AppendUint32(dst, uint32(k))
					dst = binary.BigEndian.AppendUint32(dst, uint32(int32(at(sw.Targets[j])-off)))
				}
			}
		}
	}
	return dst, nil
}

// appendTo encodes one attribute of the Code attribute.
func (a *CodeAttribute) appendTo(dst []byte, at func(Label) int) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, a.Name)
	lenPos := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var err error
	switch a.Kind {
	case AttrRaw:
		dst = append(dst, a.Raw...)
	case AttrStackMapTable:
		if dst, err = appendFrames(dst, a.Frames, at); err != nil {
			return nil, err
		}
	case AttrLineNumberTable:
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(a.Lines)))
		for _, ln := range a.Lines {
			dst = binary.BigEndian.AppendUint16(dst, uint16(at(ln.Start)))
			dst = binary.BigEndian.AppendUint16(dst, ln.Line)
		}
	case AttrLocalVariableTable, AttrLocalVariableTypeTable:
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(a.Locals)))
		for _, v := range a.Locals {
			s := at(v.Start)
			dst = binary.BigEndian.AppendUint16(dst, uint16(s))
			dst = binary.BigEndian.AppendUint16(dst, uint16(at(v.End)-s))
			dst = binary.BigEndian.AppendUint16(dst, v.Name)
			dst = binary.BigEndian.AppendUint16(dst, v.Descriptor)
			dst = binary.BigEndian.AppendUint16(dst, v.Index)
		}
	case AttrVisibleTypeAnnotations, AttrInvisibleTypeAnnotations:
		dst = appendTypeAnnotations(dst, a.TypeAnnotations, at)
	}
	binary.BigEndian.PutUint32(dst[lenPos:], uint32(len(dst)-lenPos-4))
	return dst, nil
}

func appendFrames(dst []byte, frames []Frame, at func(Label) int) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(frames)))
	prev := -1
	for i := range frames {
		f := &frames[i]
		off := at(f.At)
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
			dst = appendVType(dst, f.Stack[0], at)
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
				dst = appendVType(dst, v, at)
			}
		case FrameFull:
			dst = append(dst, 255)
			dst = binary.BigEndian.AppendUint16(dst, uint16(delta))
			dst = binary.BigEndian.AppendUint16(dst, uint16(len(f.Locals)))
			for _, v := range f.Locals {
				dst = appendVType(dst, v, at)
			}
			dst = binary.BigEndian.AppendUint16(dst, uint16(len(f.Stack)))
			for _, v := range f.Stack {
				dst = appendVType(dst, v, at)
			}
		default:
			return nil, fmt.Errorf("stack map frame %d: unknown kind %d", i, f.Kind)
		}
	}
	return dst, nil
}

func appendVType(dst []byte, v VType, at func(Label) int) []byte {
	dst = append(dst, v.Tag)
	switch v.Tag {
	case VObject:
		dst = binary.BigEndian.AppendUint16(dst, v.Class)
	case VUninitialized:
		dst = binary.BigEndian.AppendUint16(dst, uint16(at(v.New)))
	}
	return dst
}

// Offsets lays the code out as Encode would and returns the byte offset of
// every instruction, and of every placed label (-1 for labels not placed),
// for tools that show code by offset.
func (c *Code) Offsets() (insns []int, labels []int, err error) {
	offs, _, err := c.layout()
	if err != nil {
		return nil, nil, err
	}
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
