package classfile

import (
	"encoding/binary"
	"sync"
)

// codeDecoder holds per-call scratch space, pooled so that decoding many
// methods allocates little beyond the result.
type codeDecoder struct {
	pool    *ConstantPool
	code    []byte
	c       *Code
	insnAt  []int32 // code offset -> instruction index + 1; 0 inside an instruction
	insnOff []int32 // instruction index -> code offset
	insns   []Insn  // instructions as decoded, copied out at the end
	spans   []frameSpan
	vtypes  []VType // arena for frame locals/stack
}

var decoderPool = sync.Pool{New: func() any { return new(codeDecoder) }}

// DecodeCode decodes the body of a Code attribute. pool resolves attribute
// names and checks constant references that the layout depends on.
func DecodeCode(pool *ConstantPool, data []byte) (*Code, error) {
	d := decoderPool.Get().(*codeDecoder)
	defer func() {
		d.pool, d.code, d.c = nil, nil, nil
		decoderPool.Put(d)
	}()
	d.pool = pool
	return d.decode(data)
}

func (d *codeDecoder) decode(data []byte) (*Code, error) {
	r := &reader{buf: data, where: "Code"}
	c := &Code{}
	d.c = c
	c.MaxStack = r.u2()
	c.MaxLocals = r.u2()
	codeLen := r.u4()
	if r.err != nil {
		return nil, r.err
	}
	if codeLen == 0 || codeLen > 65535 {
		return nil, formatErr("Code", 4, "code_length %d out of range 1..65535", codeLen)
	}
	d.code = r.bytes(int(codeLen))
	if r.err != nil {
		return nil, r.err
	}
	if err := d.decodeInsns(); err != nil {
		return nil, err
	}
	if err := d.decodeHandlers(r); err != nil {
		return nil, err
	}
	if err := d.decodeAttributes(r); err != nil {
		return nil, err
	}
	if err := d.resolveTargets(); err != nil {
		return nil, err
	}
	return c, nil
}

// labelAt returns the label of the instruction starting at off, creating
// it on first use; off == len(code) names the end of the code.
func (d *codeDecoder) labelAt(off int) (Label, error) {
	if off == len(d.code) {
		if d.c.End == NoLabel {
			d.c.End = d.c.NewLabel()
		}
		return d.c.End, nil
	}
	if off < 0 || off > len(d.code) || d.insnAt[off] == 0 {
		return NoLabel, formatErr("code", off, "offset is not the start of an instruction")
	}
	in := &d.c.Insns[d.insnAt[off]-1]
	if in.Mark == NoLabel {
		in.Mark = d.c.NewLabel()
	}
	return in.Mark, nil
}

// insnLabelAt is labelAt for positions that must hold an instruction.
func (d *codeDecoder) insnLabelAt(off int) (Label, error) {
	if off == len(d.code) {
		return NoLabel, formatErr("code", off, "offset is past the last instruction")
	}
	return d.labelAt(off)
}

// decodeInsns walks the code array once. Branch targets are kept as
// absolute offsets in Target (and in Switch targets) until resolveTargets.
func (d *codeDecoder) decodeInsns() error {
	code := d.code
	n := len(code)
	if cap(d.insnAt) < n+1 {
		d.insnAt = make([]int32, n+1)
	}
	d.insnAt = d.insnAt[:n+1]
	clear(d.insnAt)
	c := d.c
	d.insns = d.insns[:0]
	d.insnOff = d.insnOff[:0]
	u2 := func(p int) int32 { return int32(binary.BigEndian.Uint16(code[p:])) }
	s4 := func(p int) int32 { return int32(binary.BigEndian.Uint32(code[p:])) }
	need := func(off, size int) error {
		if off+size > n {
			return formatErr("code", off, "%s truncated: needs %d bytes, %d left", opInfo[code[off]].name, size, n-off)
		}
		return nil
	}
	for off := 0; off < n; {
		op := code[off]
		in := Insn{Op: op}
		var size int
		switch opInfo[op].kind {
		case opNone:
			size = 1
		case opLocal, opCP1, opAType:
			size = 2
			if err := need(off, size); err != nil {
				return err
			}
			in.A = int32(code[off+1])
		case opByte:
			size = 2
			if err := need(off, size); err != nil {
				return err
			}
			in.A = int32(int8(code[off+1]))
		case opShort:
			size = 3
			if err := need(off, size); err != nil {
				return err
			}
			in.A = int32(int16(u2(off + 1)))
		case opCP2:
			size = 3
			if err := need(off, size); err != nil {
				return err
			}
			in.A = u2(off + 1)
		case opIinc:
			size = 3
			if err := need(off, size); err != nil {
				return err
			}
			in.A = int32(code[off+1])
			in.B = int32(int8(code[off+2]))
		case opBranch2:
			size = 3
			if err := need(off, size); err != nil {
				return err
			}
			in.Target = Label(int32(off) + int32(int16(u2(off+1))))
		case opBranch4:
			size = 5
			if err := need(off, size); err != nil {
				return err
			}
			in.Target = Label(int32(off) + s4(off+1))
		case opInvokeInterface, opInvokeDynamic:
			size = 5
			if err := need(off, size); err != nil {
				return err
			}
			in.A = u2(off + 1)
			if op == INVOKEINTERFACE {
				in.B = int32(code[off+3])
				if code[off+4] != 0 {
					return formatErr("code", off, "invokeinterface: fourth operand byte is %d, not 0", code[off+4])
				}
			} else if code[off+3] != 0 || code[off+4] != 0 {
				return formatErr("code", off, "invokedynamic: operand bytes 3-4 are not 0")
			}
		case opMultiANewArray:
			size = 4
			if err := need(off, size); err != nil {
				return err
			}
			in.A = u2(off + 1)
			in.B = int32(code[off+3])
		case opWide:
			if err := need(off, 2); err != nil {
				return err
			}
			in.Op = code[off+1]
			in.Wide = true
			switch opInfo[in.Op].kind {
			case opLocal:
				size = 4
				if err := need(off, size); err != nil {
					return err
				}
				in.A = u2(off + 2)
			case opIinc:
				size = 6
				if err := need(off, size); err != nil {
					return err
				}
				in.A = u2(off + 2)
				in.B = int32(int16(u2(off + 4)))
			default:
				return formatErr("code", off, "wide applied to %s (0x%02X)", opName(in.Op), in.Op)
			}
		case opTableSwitch, opLookupSwitch:
			var err error
			if size, err = d.decodeSwitch(off, &in); err != nil {
				return err
			}
		default:
			return formatErr("code", off, "unknown opcode 0x%02X", op)
		}
		d.insnAt[off] = int32(len(d.insns)) + 1
		d.insnOff = append(d.insnOff, int32(off))
		d.insns = append(d.insns, in)
		off += size
	}
	// One exact allocation: the rewriter appends to a copy anyway.
	c.Insns = append(make([]Insn, 0, len(d.insns)), d.insns...)
	return nil
}

func opName(op uint8) string {
	if n := opInfo[op].name; n != "" {
		return n
	}
	return "unknown opcode"
}

// decodeSwitch reads a tableswitch or lookupswitch at off and returns its size.
func (d *codeDecoder) decodeSwitch(off int, in *Insn) (int, error) {
	code := d.code
	op := code[off]
	p := off + 1 + padding(off)
	s4 := func(q int) int32 { return int32(binary.BigEndian.Uint32(code[q:])) }
	if p+12 > len(code) || (op == LOOKUPSWITCH && p+8 > len(code)) {
		return 0, formatErr("code", off, "%s truncated", opInfo[op].name)
	}
	sw := Switch{Default: Label(int32(off) + s4(p))}
	var end int
	if op == TABLESWITCH {
		low, high := s4(p+4), s4(p+8)
		if low > high {
			return 0, formatErr("code", off, "tableswitch low %d > high %d", low, high)
		}
		count := int64(high) - int64(low) + 1
		end = p + 12
		if int64(end)+4*count > int64(len(code)) {
			return 0, formatErr("code", off, "tableswitch with %d targets truncated", count)
		}
		sw.Low = low
		sw.Targets = make([]Label, count)
		for i := range sw.Targets {
			sw.Targets[i] = Label(int32(off) + s4(end))
			end += 4
		}
	} else {
		npairs := s4(p + 4)
		end = p + 8
		if npairs < 0 || int64(end)+8*int64(npairs) > int64(len(code)) {
			return 0, formatErr("code", off, "lookupswitch with %d pairs truncated", npairs)
		}
		sw.Keys = make([]int32, npairs)
		sw.Targets = make([]Label, npairs)
		for i := range sw.Keys {
			sw.Keys[i] = s4(end)
			if i > 0 && sw.Keys[i] <= sw.Keys[i-1] {
				return 0, formatErr("code", off, "lookupswitch keys not sorted at pair %d", i)
			}
			sw.Targets[i] = Label(int32(off) + s4(end+4))
			end += 8
		}
	}
	for q := off + 1; q < off+1+padding(off); q++ {
		if code[q] != 0 {
			return 0, formatErr("code", off, "%s: nonzero padding byte", opInfo[op].name)
		}
	}
	in.A = int32(len(d.c.Switches))
	d.c.Switches = append(d.c.Switches, sw)
	return end - off, nil
}

// frameSpan locates one frame's locals and stack in the decoder's arena.
type frameSpan struct{ l0, l1, s0, s1 int }

// padding returns the number of bytes after a switch opcode at off that
// align its operands to a multiple of four.
func padding(off int) int { return (4 - (off+1)%4) % 4 }

// resolveTargets turns the absolute offsets left by decodeInsns into labels.
func (d *codeDecoder) resolveTargets() error {
	c := d.c
	for i := range c.Insns {
		in := &c.Insns[i]
		if opInfo[in.Op].kind == opBranch2 || opInfo[in.Op].kind == opBranch4 {
			l, err := d.branchLabel(int(d.insnOff[i]), int(in.Target))
			if err != nil {
				return err
			}
			in.Target = l
		}
	}
	for i := range c.Switches {
		sw := &c.Switches[i]
		// The switch's own offset is needed for messages only; targets are absolute already.
		l, err := d.branchLabel(-1, int(sw.Default))
		if err != nil {
			return err
		}
		sw.Default = l
		for j, t := range sw.Targets {
			if sw.Targets[j], err = d.branchLabel(-1, int(t)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *codeDecoder) branchLabel(from, target int) (Label, error) {
	if target < 0 || target >= len(d.code) || d.insnAt[target] == 0 {
		if from < 0 {
			return NoLabel, formatErr("code", target, "switch target is not the start of an instruction")
		}
		return NoLabel, formatErr("code", from, "branch target %d is not the start of an instruction", target)
	}
	return d.labelAt(target)
}

func (d *codeDecoder) decodeHandlers(r *reader) error {
	n := int(r.u2())
	if r.err != nil {
		return r.err
	}
	if n == 0 {
		return nil
	}
	d.c.Handlers = make([]Handler, n)
	for i := range d.c.Handlers {
		pos := r.pos
		start, end, handler, ct := int(r.u2()), int(r.u2()), int(r.u2()), r.u2()
		if r.err != nil {
			return r.err
		}
		if start >= end {
			return formatErr("Code", pos, "exception table entry %d: start %d >= end %d", i, start, end)
		}
		if ct != 0 && d.pool.Tag(ct) != TagClass {
			return formatErr("Code", pos, "exception table entry %d: catch type %d is not a Class constant", i, ct)
		}
		h := &d.c.Handlers[i]
		h.CatchType = ct
		var err error
		if h.Start, err = d.insnLabelAt(start); err != nil {
			return err
		}
		if h.End, err = d.labelAt(end); err != nil {
			return err
		}
		if h.Handler, err = d.insnLabelAt(handler); err != nil {
			return err
		}
	}
	return nil
}

func (d *codeDecoder) decodeAttributes(r *reader) error {
	n := int(r.u2())
	if r.err != nil {
		return r.err
	}
	if n == 0 {
		if r.remaining() != 0 {
			return formatErr("Code", r.pos, "%d trailing bytes after the attributes", r.remaining())
		}
		return nil
	}
	d.c.Attributes = make([]CodeAttribute, n)
	for i := range d.c.Attributes {
		pos := r.pos
		a := &d.c.Attributes[i]
		a.Name = r.u2()
		size := r.u4()
		if r.err != nil {
			return r.err
		}
		name, err := d.pool.Utf8Bytes(a.Name)
		if err != nil {
			return formatErr("Code", pos, "attribute name: %v", err)
		}
		if int64(size) > int64(r.remaining()) {
			return formatErr("Code", pos, "attribute %s length %d exceeds the %d bytes left", name, size, r.remaining())
		}
		body := r.bytes(int(size))
		switch string(name) {
		case "StackMapTable":
			a.Kind = AttrStackMapTable
			err = d.decodeFrames(a, body)
		case "LineNumberTable":
			a.Kind = AttrLineNumberTable
			err = d.decodeLines(a, body)
		case "LocalVariableTable":
			a.Kind = AttrLocalVariableTable
			err = d.decodeLocals(a, body)
		case "LocalVariableTypeTable":
			a.Kind = AttrLocalVariableTypeTable
			err = d.decodeLocals(a, body)
		case "RuntimeVisibleTypeAnnotations":
			a.Kind = AttrVisibleTypeAnnotations
			a.TypeAnnotations, err = parseTypeAnnotations(body, d.labelAt)
		case "RuntimeInvisibleTypeAnnotations":
			a.Kind = AttrInvisibleTypeAnnotations
			a.TypeAnnotations, err = parseTypeAnnotations(body, d.labelAt)
		default:
			a.Raw = body
		}
		if err != nil {
			return formatErr("Code", pos, "attribute %s: %v", name, err)
		}
	}
	if r.remaining() != 0 {
		return formatErr("Code", r.pos, "%d trailing bytes after the attributes", r.remaining())
	}
	return nil
}

func (d *codeDecoder) decodeLines(a *CodeAttribute, body []byte) error {
	r := &reader{buf: body, where: "LineNumberTable"}
	n := int(r.u2())
	if r.err == nil && r.remaining() != 4*n {
		return formatErr(r.where, 0, "%d entries need %d bytes, have %d", n, 4*n, r.remaining())
	}
	a.Lines = make([]LineNumber, n)
	for i := range a.Lines {
		off, line := int(r.u2()), r.u2()
		l, err := d.insnLabelAt(off)
		if err != nil {
			return err
		}
		a.Lines[i] = LineNumber{l, line}
	}
	return r.err
}

func (d *codeDecoder) decodeLocals(a *CodeAttribute, body []byte) error {
	r := &reader{buf: body, where: "local variable table"}
	n := int(r.u2())
	if r.err == nil && r.remaining() != 10*n {
		return formatErr(r.where, 0, "%d entries need %d bytes, have %d", n, 10*n, r.remaining())
	}
	a.Locals = make([]LocalVariable, n)
	for i := range a.Locals {
		start, length := int(r.u2()), int(r.u2())
		v := &a.Locals[i]
		v.Name, v.Descriptor, v.Index = r.u2(), r.u2(), r.u2()
		var err error
		if v.Start, err = d.labelAt(start); err != nil {
			return err
		}
		if v.End, err = d.labelAt(start + length); err != nil {
			return err
		}
	}
	return r.err
}

func (d *codeDecoder) decodeFrames(a *CodeAttribute, body []byte) error {
	r := &reader{buf: body, where: "StackMapTable"}
	n := int(r.u2())
	if r.err != nil {
		return r.err
	}
	d.vtypes = d.vtypes[:0]
	if cap(d.spans) < n {
		d.spans = make([]frameSpan, n)
	}
	spans := d.spans[:n]
	a.Frames = make([]Frame, n)
	off := -1
	for i := range a.Frames {
		pos := r.pos
		t := r.u1()
		f := &a.Frames[i]
		var delta int
		sp := frameSpan{}
		sp.l0, sp.l1 = len(d.vtypes), len(d.vtypes)
		switch {
		case t <= 63:
			f.Kind, delta = FrameSame, int(t)
		case t <= 127:
			f.Kind, delta = FrameSameLocals1, int(t-64)
		case t == 247:
			f.Kind, delta = FrameSameLocals1Extended, int(r.u2())
		case t >= 248 && t <= 250:
			f.Kind, delta, f.Chop = FrameChop, int(r.u2()), 251-t
		case t == 251:
			f.Kind, delta = FrameSameExtended, int(r.u2())
		case t >= 252 && t <= 254:
			f.Kind, delta = FrameAppend, int(r.u2())
		case t == 255:
			f.Kind, delta = FrameFull, int(r.u2())
		default:
			return formatErr(r.where, pos, "reserved frame type %d", t)
		}
		if f.Kind == FrameAppend {
			sp.l0 = len(d.vtypes)
			if err := d.readVTypes(r, int(t-251)); err != nil {
				return err
			}
			sp.l1 = len(d.vtypes)
		}
		if f.Kind == FrameFull {
			sp.l0 = len(d.vtypes)
			if err := d.readVTypes(r, int(r.u2())); err != nil {
				return err
			}
			sp.l1 = len(d.vtypes)
		}
		sp.s0 = len(d.vtypes)
		switch f.Kind {
		case FrameSameLocals1, FrameSameLocals1Extended:
			if err := d.readVTypes(r, 1); err != nil {
				return err
			}
		case FrameFull:
			if err := d.readVTypes(r, int(r.u2())); err != nil {
				return err
			}
		}
		sp.s1 = len(d.vtypes)
		spans[i] = sp
		if r.err != nil {
			return r.err
		}
		if i == 0 {
			off = delta
		} else {
			off += delta + 1
		}
		l, err := d.insnLabelAt(off)
		if err != nil {
			return formatErr(r.where, pos, "frame %d: %v", i, err)
		}
		f.At = l
	}
	if r.remaining() != 0 {
		return formatErr(r.where, r.pos, "%d trailing bytes", r.remaining())
	}
	// One allocation for all frames' types; spans index into it.
	arena := make([]VType, len(d.vtypes))
	copy(arena, d.vtypes)
	for i := range a.Frames {
		sp := spans[i]
		if sp.l1 > sp.l0 {
			a.Frames[i].Locals = arena[sp.l0:sp.l1:sp.l1]
		}
		if sp.s1 > sp.s0 {
			a.Frames[i].Stack = arena[sp.s0:sp.s1:sp.s1]
		}
	}
	return nil
}

func (d *codeDecoder) readVTypes(r *reader, n int) error {
	for i := 0; i < n; i++ {
		pos := r.pos
		v := VType{Tag: r.u1()}
		switch v.Tag {
		case VTop, VInteger, VFloat, VDouble, VLong, VNull, VUninitializedThis:
		case VObject:
			v.Class = r.u2()
			if r.err == nil && d.pool.Tag(v.Class) != TagClass {
				return formatErr(r.where, pos, "object type index %d is not a Class constant", v.Class)
			}
		case VUninitialized:
			off := int(r.u2())
			if r.err != nil {
				return r.err
			}
			l, err := d.insnLabelAt(off)
			if err != nil {
				return formatErr(r.where, pos, "uninitialized(%d): %v", off, err)
			}
			v.New = l
		default:
			if r.err != nil {
				return r.err
			}
			return formatErr(r.where, pos, "unknown verification type tag %d", v.Tag)
		}
		if r.err != nil {
			return r.err
		}
		d.vtypes = append(d.vtypes, v)
	}
	return nil
}
