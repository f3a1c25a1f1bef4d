package classfile

import (
	"encoding/binary"
	"sync"
)

// codeDecoder holds per-call scratch space, pooled so that decoding many
// methods allocates little beyond the result. The slabs hand out the
// result's slices; see slab for why that never aliases across calls.
type codeDecoder struct {
	pool     *ConstantPool
	code     []byte
	c        *Code
	insnAt   []int32     // code offset -> instruction index + 1; 0 inside an instruction
	insns    []Insn      // scratch for code too long to decode straight into insnSlab
	branches []branchRef // the branch instructions, for resolveTargets
	spans    []frameSpan
	vtypes   []VType // scratch for frame locals/stack

	codes     slab[Code]
	insnSlab  slab[Insn]
	handlers  slab[Handler]
	attrs     slab[CodeAttribute]
	lines     slab[LineNumber]
	locals    slab[LocalVariable]
	frames    slab[Frame]
	vtypeSlab slab[VType]
}

var decoderPool = sync.Pool{New: func() any { return new(codeDecoder) }}

// DecodeCode decodes the body of a Code attribute. pool resolves attribute
// names and checks constant references that the layout depends on.
func DecodeCode(pool *ConstantPool, data []byte) (*Code, error) {
	d := decoderPool.Get().(*codeDecoder)
	d.pool = pool
	c, err := d.decode(data)
	if err != nil && d.c != nil {
		*d.c = Code{} // drop references from the abandoned slab slot
	}
	d.pool, d.code, d.c = nil, nil, nil
	decoderPool.Put(d)
	return c, err
}

func (d *codeDecoder) decode(data []byte) (*Code, error) {
	r := &reader{buf: data, where: "Code"}
	c := d.codes.one()
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

// branchRef locates a branch instruction whose target is still an offset.
type branchRef struct{ index, off int32 }

// decodeInsns walks the code array once. Branch targets are kept as
// absolute offsets in Target (and in Switch targets) until resolveTargets.
func (d *codeDecoder) decodeInsns() error {
	code := d.code
	n := len(code)
	if cap(d.insnAt) < n+1 {
		d.insnAt = make([]int32, n+1)
	}
	insnAt := d.insnAt[:n+1]
	clear(insnAt)
	d.insnAt = insnAt
	// Decode straight into the result when the slab has room for the
	// worst case (one instruction per byte), else into scratch.
	room := d.insnSlab.reserve(n)
	direct := room != nil
	if !direct {
		if cap(d.insns) < n {
			d.insns = make([]Insn, 0, n)
		}
		room = d.insns[:n]
	}
	count, err := d.decodeInsnsInto(room)
	if err != nil {
		if direct {
			clear(room[:count]) // the slab hands out only zeroed memory
		}
		return err
	}
	if direct {
		d.c.Insns = d.insnSlab.commit(count)
	} else {
		d.c.Insns = d.insnSlab.take(count)
		copy(d.c.Insns, room[:count])
	}
	return nil
}

// decodeInsnsInto decodes the code array into insns, which has room for
// one instruction per byte, and returns the number decoded (on error, the
// number written so far). It is the decoder's hottest loop: instructions
// whose size the opcode alone fixes are decoded inline, the rest by
// variableInsn.
func (d *codeDecoder) decodeInsnsInto(insns []Insn) (int, error) {
	code := d.code
	n := len(code)
	insnAt := d.insnAt
	d.branches = d.branches[:0]
	k := 0
	for off := 0; off < n; {
		op := code[off]
		size := int(fixedSize[op])
		in := Insn{Op: Opcode(op)}
		if f := &plainOperands[op]; f.plain && off+8 <= n {
			// One load and table-driven shifts instead of a jump on the
			// operand kind, which mispredicts on nearly every instruction.
			w := binary.BigEndian.Uint64(code[off:])
			in.A = int32(int64(w<<f.aShl)>>f.aShr) & f.aMask
			in.B = int32(int64(w<<f.bShl)>>f.bShr) & f.bMask
		} else if size != 0 && off+size <= n {
			b := code[off : off+size]
			switch opKind[op] {
			case opLocal, opCP1, opAType:
				in.A = int32(b[1])
			case opByte:
				in.A = int32(int8(b[1]))
			case opShort:
				in.A = int32(int16(binary.BigEndian.Uint16(b[1:])))
			case opCP2:
				in.A = int32(binary.BigEndian.Uint16(b[1:]))
			case opIinc:
				in.A = int32(b[1])
				in.B = int32(int8(b[2]))
			case opBranch2:
				in.Target = Label(int32(off) + int32(int16(binary.BigEndian.Uint16(b[1:]))))
				d.branches = append(d.branches, branchRef{int32(k), int32(off)})
			case opBranch4:
				in.Target = Label(int32(off) + int32(binary.BigEndian.Uint32(b[1:])))
				d.branches = append(d.branches, branchRef{int32(k), int32(off)})
			case opMultiANewArray:
				in.A = int32(binary.BigEndian.Uint16(b[1:]))
				in.B = int32(b[3])
			}
		} else {
			var err error
			if size, err = d.variableInsn(&in, off); err != nil {
				return k, err
			}
		}
		insnAt[off] = int32(k) + 1
		insns[k] = in
		k++
		off += size
	}
	return k, nil
}

// operandFields says where the A and B operands of an instruction sit in
// the big-endian word of its first eight bytes: a field is the word
// shifted left by Shl, then arithmetically right by Shr, then masked
// (mask -1 keeps the sign, 0 makes the operand absent).
type operandFields struct {
	plain        bool // decodable from the word (no labels, no checks)
	aShl, aShr   uint8
	bShl, bShr   uint8
	aMask, bMask int32
}

// plainOperands is filled by initDecodeTables from the opcode table.
var plainOperands [256]operandFields

func initDecodeTables() {
	u8 := func(byteAt uint8) (uint8, uint8, int32) { return 8 * byteAt, 56, 0xFF }
	s8 := func(byteAt uint8) (uint8, uint8, int32) { return 8 * byteAt, 56, -1 }
	u16 := func(byteAt uint8) (uint8, uint8, int32) { return 8 * byteAt, 48, 0xFFFF }
	s16 := func(byteAt uint8) (uint8, uint8, int32) { return 8 * byteAt, 48, -1 }
	for op := range plainOperands {
		f := &plainOperands[op]
		f.plain = true
		switch opKind[op] {
		case opNone: // both masks 0
		case opLocal, opCP1, opAType:
			f.aShl, f.aShr, f.aMask = u8(1)
		case opByte:
			f.aShl, f.aShr, f.aMask = s8(1)
		case opShort:
			f.aShl, f.aShr, f.aMask = s16(1)
		case opCP2:
			f.aShl, f.aShr, f.aMask = u16(1)
		case opIinc:
			f.aShl, f.aShr, f.aMask = u8(1)
			f.bShl, f.bShr, f.bMask = s8(2)
		case opMultiANewArray:
			f.aShl, f.aShr, f.aMask = u16(1)
			f.bShl, f.bShr, f.bMask = u8(3)
		default: // branches, switches, invokeinterface/dynamic, wide, invalid
			f.plain = false
		}
	}
}

// variableInsn decodes what decodeInsnsInto does not inline: invalid
// opcodes, truncated instructions, the invoke forms whose zero bytes must
// be checked, wide and the switches. It returns the instruction's size.
func (d *codeDecoder) variableInsn(in *Insn, off int) (int, error) {
	code := d.code
	n := len(code)
	if size := int(fixedSize[in.Op]); size != 0 { // only reached when truncated
		return 0, formatErr("code", off, "%s truncated: needs %d bytes, %d left", opInfo[in.Op].name, size, n-off)
	}
	need := func(size int) error {
		if off+size > n {
			return formatErr("code", off, "%s truncated: needs %d bytes, %d left", opInfo[code[off]].name, size, n-off)
		}
		return nil
	}
	switch opInfo[in.Op].kind {
	case opWide:
		if err := need(2); err != nil {
			return 0, err
		}
		in.Op = Opcode(code[off+1])
		in.Wide = true
		size := 0
		switch opInfo[in.Op].kind {
		case opLocal:
			size = 4
		case opIinc:
			size = 6
		default:
			return 0, formatErr("code", off, "wide applied to %s (0x%02X)", opName(in.Op), uint8(in.Op))
		}
		if err := need(size); err != nil {
			return 0, err
		}
		in.A = int32(binary.BigEndian.Uint16(code[off+2:]))
		if size == 6 {
			in.B = int32(int16(binary.BigEndian.Uint16(code[off+4:])))
		}
		return size, nil
	case opInvokeInterface, opInvokeDynamic:
		if err := need(5); err != nil {
			return 0, err
		}
		in.A = int32(binary.BigEndian.Uint16(code[off+1:]))
		if in.Op == INVOKEINTERFACE {
			in.B = int32(code[off+3])
			if code[off+4] != 0 {
				return 0, formatErr("code", off, "invokeinterface: fourth operand byte is %d, not 0", code[off+4])
			}
		} else if code[off+3] != 0 || code[off+4] != 0 {
			return 0, formatErr("code", off, "invokedynamic: operand bytes 3-4 are not 0")
		}
		return 5, nil
	case opTableSwitch, opLookupSwitch:
		return d.decodeSwitch(off, in)
	}
	return 0, formatErr("code", off, "unknown opcode 0x%02X", uint8(in.Op))
}

func opName[O ~uint8](op O) string {
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
	// A lookupswitch's fixed part is default and npairs (8 bytes), a
	// tableswitch's default, low and high (12): a lookupswitch with no
	// pairs, which javac emits for a switch with only a default, can end
	// 4 bytes before a tableswitch could.
	if p+switchHeader(op) > len(code) {
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

// switchHeader is the size of a switch's fixed operands after its padding.
func switchHeader(op uint8) int {
	if op == LOOKUPSWITCH {
		return 8
	}
	return 12
}

// padding returns the number of bytes after a switch opcode at off that
// align its operands to a multiple of four.
func padding(off int) int { return (4 - (off+1)%4) % 4 }

// resolveTargets turns the absolute offsets left by decodeInsns into labels.
func (d *codeDecoder) resolveTargets() error {
	c := d.c
	for _, br := range d.branches {
		in := &c.Insns[br.index]
		l, err := d.branchLabel(int(br.off), int(in.Target))
		if err != nil {
			return err
		}
		in.Target = l
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
	d.c.Handlers = d.handlers.take(n)
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
	d.c.Attributes = d.attrs.take(n)
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
	n, entries, err := tableEntries(body, 4, "LineNumberTable")
	if err != nil {
		return err
	}
	a.Lines = d.lines.take(n)
	for i := range a.Lines {
		e := entries[4*i : 4*i+4]
		l, err := d.insnLabelAt(int(binary.BigEndian.Uint16(e)))
		if err != nil {
			return err
		}
		a.Lines[i] = LineNumber{l, binary.BigEndian.Uint16(e[2:])}
	}
	return nil
}

func (d *codeDecoder) decodeLocals(a *CodeAttribute, body []byte) error {
	n, entries, err := tableEntries(body, 10, "local variable table")
	if err != nil {
		return err
	}
	a.Locals = d.locals.take(n)
	for i := range a.Locals {
		e := entries[10*i : 10*i+10]
		start, length := int(binary.BigEndian.Uint16(e)), int(binary.BigEndian.Uint16(e[2:]))
		v := &a.Locals[i]
		v.Name = binary.BigEndian.Uint16(e[4:])
		v.Descriptor = binary.BigEndian.Uint16(e[6:])
		v.Index = binary.BigEndian.Uint16(e[8:])
		if v.Start, err = d.labelAt(start); err != nil {
			return err
		}
		if v.End, err = d.labelAt(start + length); err != nil {
			return err
		}
	}
	return nil
}

// tableEntries splits the body of a table attribute (u2 count, then count
// entries of size bytes each) and checks that the body holds exactly that.
func tableEntries(body []byte, size int, where string) (int, []byte, error) {
	if len(body) < 2 {
		return 0, nil, formatErr(where, 0, "truncated: need 2 bytes, have %d", len(body))
	}
	n := int(binary.BigEndian.Uint16(body))
	if len(body)-2 != size*n {
		return 0, nil, formatErr(where, 0, "%d entries need %d bytes, have %d", n, size*n, len(body)-2)
	}
	return n, body[2:], nil
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
	a.Frames = d.frames.take(n)
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
	arena := d.vtypeSlab.take(len(d.vtypes))
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
