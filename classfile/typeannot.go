package classfile

import "encoding/binary"

// TypeAnnotation is one entry of a Runtime(In)VisibleTypeAnnotations
// attribute inside Code. Only the target, which holds code offsets, is
// decoded; the type path and the annotation proper stay raw in Rest.
type TypeAnnotation struct {
	TargetType uint8
	// localvar_target (0x40, 0x41)
	Ranges []LocalVarRange
	// catch_target (0x42)
	ExceptionIndex uint16
	// offset_target (0x43-0x46) and type_argument_target (0x47-0x4B)
	Offset       Label
	TypeArgument uint8
	Rest         []byte // type_path, type_index, element_value_pairs
}

// LocalVarRange is one entry of a localvar_target table.
type LocalVarRange struct {
	Start, End Label
	Index      uint16
}

// parseTypeAnnotations reads a type-annotations attribute body; labelAt
// turns a code offset into a label.
func parseTypeAnnotations(data []byte, labelAt func(off int) (Label, error)) ([]TypeAnnotation, error) {
	r := &reader{buf: data, where: "type annotations"}
	n := int(r.u2())
	out := make([]TypeAnnotation, n)
	for i := range out {
		ta := &out[i]
		ta.TargetType = r.u1()
		switch ta.TargetType {
		case 0x40, 0x41:
			m := int(r.u2())
			if r.err != nil {
				return nil, r.err
			}
			ta.Ranges = make([]LocalVarRange, m)
			for j := range ta.Ranges {
				start, length := int(r.u2()), int(r.u2())
				idx := r.u2()
				if r.err != nil {
					return nil, r.err
				}
				s, err := labelAt(start)
				if err != nil {
					return nil, err
				}
				e, err := labelAt(start + length)
				if err != nil {
					return nil, err
				}
				ta.Ranges[j] = LocalVarRange{s, e, idx}
			}
		case 0x42:
			ta.ExceptionIndex = r.u2()
		case 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x4B:
			off := int(r.u2())
			if ta.TargetType >= 0x47 {
				ta.TypeArgument = r.u1()
			}
			if r.err != nil {
				return nil, r.err
			}
			l, err := labelAt(off)
			if err != nil {
				return nil, err
			}
			ta.Offset = l
		default:
			if r.err != nil {
				return nil, r.err
			}
			return nil, formatErr(r.where, r.pos-1, "target type 0x%02X is not allowed in Code", ta.TargetType)
		}
		start := r.pos
		pathLen := int(r.u1())
		r.bytes(2 * pathLen)
		r.u2() // type_index
		skipElementPairs(r)
		if r.err != nil {
			return nil, r.err
		}
		ta.Rest = data[start:r.pos:r.pos]
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.remaining() != 0 {
		return nil, formatErr(r.where, r.pos, "%d trailing bytes", r.remaining())
	}
	return out, nil
}

// maxAnnotationDepth bounds nesting so hostile input cannot exhaust the stack.
const maxAnnotationDepth = 256

func skipElementPairs(r *reader) { skipPairs(r, 0) }

func skipPairs(r *reader, depth int) {
	n := int(r.u2())
	for i := 0; i < n && r.err == nil; i++ {
		r.u2() // element_name_index
		skipElementValue(r, depth+1)
	}
}

func skipElementValue(r *reader, depth int) {
	if depth > maxAnnotationDepth {
		if r.err == nil {
			r.err = formatErr(r.where, r.pos, "annotation nesting deeper than %d", maxAnnotationDepth)
		}
		return
	}
	tag := r.u1()
	switch tag {
	case 'B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z', 's', 'c':
		r.u2()
	case 'e':
		r.u4()
	case '@':
		r.u2()
		skipPairs(r, depth)
	case '[':
		n := int(r.u2())
		for i := 0; i < n && r.err == nil; i++ {
			skipElementValue(r, depth+1)
		}
	default:
		if r.err == nil {
			r.err = formatErr(r.where, r.pos-1, "unknown element_value tag 0x%02X", tag)
		}
	}
}

func appendTypeAnnotations(dst []byte, tas []TypeAnnotation, lo *encodeScratch) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(tas)))
	for i := range tas {
		ta := &tas[i]
		dst = append(dst, ta.TargetType)
		switch {
		case ta.TargetType == 0x40 || ta.TargetType == 0x41:
			dst = binary.BigEndian.AppendUint16(dst, uint16(len(ta.Ranges)))
			for _, rg := range ta.Ranges {
				s := lo.at(rg.Start)
				dst = binary.BigEndian.AppendUint16(dst, uint16(s))
				dst = binary.BigEndian.AppendUint16(dst, uint16(lo.at(rg.End)-s))
				dst = binary.BigEndian.AppendUint16(dst, rg.Index)
			}
		case ta.TargetType == 0x42:
			dst = binary.BigEndian.AppendUint16(dst, ta.ExceptionIndex)
		default:
			dst = binary.BigEndian.AppendUint16(dst, uint16(lo.at(ta.Offset)))
			if ta.TargetType >= 0x47 {
				dst = append(dst, ta.TypeArgument)
			}
		}
		dst = append(dst, ta.Rest...)
	}
	return dst
}

// AnnotationTypes returns the type descriptors ("La/b/Traced;") of the
// annotations in a RuntimeVisibleAnnotations or RuntimeInvisibleAnnotations
// attribute body.
func AnnotationTypes(pool *ConstantPool, data []byte) ([]string, error) {
	r := &reader{buf: data, where: "annotations"}
	n := int(r.u2())
	var types []string
	for i := 0; i < n && r.err == nil; i++ {
		idx := r.u2()
		if r.err != nil {
			break
		}
		t, err := pool.Utf8(idx)
		if err != nil {
			return nil, formatErr("annotations", r.pos-2, "type_index %d: %v", idx, err)
		}
		types = append(types, t)
		skipElementPairs(r)
	}
	if r.err != nil {
		return nil, r.err
	}
	return types, nil
}
