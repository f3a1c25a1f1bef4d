package classfile

import "fmt"

// Descriptor is a descriptor as a string, or as the raw bytes of its
// Utf8 constant (read without making a string of them).
type Descriptor interface{ ~string | ~[]byte }

// MethodSlots returns the number of local/stack slots a method
// descriptor's parameters take and the slots its return value takes
// (0 for void, 2 for long/double).
func MethodSlots[D Descriptor](desc D) (params, ret int, err error) {
	if len(desc) == 0 || desc[0] != '(' {
		return 0, 0, fmt.Errorf("malformed method descriptor %q", desc)
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		n, next, err := fieldType(desc, i)
		if err != nil {
			return 0, 0, err
		}
		params += n
		i = next
	}
	if i >= len(desc) {
		return 0, 0, fmt.Errorf("malformed method descriptor %q", desc)
	}
	i++
	if i < len(desc) && desc[i] == 'V' && i+1 == len(desc) {
		return params, 0, nil
	}
	ret, next, err := fieldType(desc, i)
	if err != nil || next != len(desc) {
		return 0, 0, fmt.Errorf("malformed method descriptor %q", desc)
	}
	return params, ret, nil
}

// FieldSlots returns the slots a field descriptor's value takes.
func FieldSlots[D Descriptor](desc D) (int, error) {
	n, next, err := fieldType(desc, 0)
	if err != nil || next != len(desc) {
		return 0, fmt.Errorf("malformed field descriptor %q", desc)
	}
	return n, nil
}

// fieldType parses one field type at desc[i:] and returns its slot count
// and the index after it.
func fieldType[D Descriptor](desc D, i int) (slots, next int, err error) {
	start := i
	for i < len(desc) && desc[i] == '[' {
		i++
	}
	if i >= len(desc) {
		return 0, 0, fmt.Errorf("malformed descriptor %q", desc)
	}
	array := i > start
	switch desc[i] {
	case 'B', 'C', 'F', 'I', 'S', 'Z':
		return 1, i + 1, nil
	case 'J', 'D':
		if array {
			return 1, i + 1, nil
		}
		return 2, i + 1, nil
	case 'L':
		for j := i + 1; j < len(desc); j++ {
			if desc[j] == ';' {
				if j == i+1 {
					break
				}
				return 1, j + 1, nil
			}
		}
	}
	return 0, 0, fmt.Errorf("malformed descriptor %q at %d", desc, i)
}

// InitialLocals returns the implicit first frame of a method as
// verification-type entries (a long or double is one entry). References
// carry no class index (Class 0): callers that need only the shape of the
// frame, not the classes, use this. For a constructor of any class but
// java/lang/Object the receiver is uninitializedThis.
func InitialLocals(desc string, static, uninitThis bool) ([]VType, error) {
	if len(desc) == 0 || desc[0] != '(' {
		return nil, fmt.Errorf("malformed method descriptor %q", desc)
	}
	var out []VType
	if !static {
		if uninitThis {
			out = append(out, VType{Tag: VUninitializedThis})
		} else {
			out = append(out, VType{Tag: VObject})
		}
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		_, next, err := fieldType(desc, i)
		if err != nil {
			return nil, err
		}
		var v VType
		switch desc[i] {
		case 'B', 'C', 'I', 'S', 'Z':
			v.Tag = VInteger
		case 'F':
			v.Tag = VFloat
		case 'J':
			v.Tag = VLong
		case 'D':
			v.Tag = VDouble
		default:
			v.Tag = VObject
		}
		out = append(out, v)
		i = next
	}
	if i >= len(desc) {
		return nil, fmt.Errorf("malformed method descriptor %q", desc)
	}
	return out, nil
}

// FullFrame is the complete state a StackMapTable frame describes.
type FullFrame struct {
	At     Label
	Locals []VType // entries; a long or double is one entry standing for two slots
	Stack  []VType
}

// ExpandFrames applies the compressed frames in order, starting from the
// method's initial locals, and returns the full state at each frame.
func ExpandFrames(initial []VType, frames []Frame) ([]FullFrame, error) {
	out := make([]FullFrame, len(frames))
	locals := initial
	for i := range frames {
		f := &frames[i]
		var stack []VType
		switch f.Kind {
		case FrameSame, FrameSameExtended:
		case FrameSameLocals1, FrameSameLocals1Extended:
			stack = f.Stack
		case FrameChop:
			if int(f.Chop) > len(locals) {
				return nil, fmt.Errorf("stack map frame %d chops %d locals of %d", i, f.Chop, len(locals))
			}
			locals = locals[: len(locals)-int(f.Chop) : len(locals)-int(f.Chop)]
		case FrameAppend:
			next := make([]VType, 0, len(locals)+len(f.Locals))
			locals = append(append(next, locals...), f.Locals...)
		case FrameFull:
			locals, stack = f.Locals, f.Stack
		default:
			return nil, fmt.Errorf("stack map frame %d: unknown kind %d", i, f.Kind)
		}
		out[i] = FullFrame{At: f.At, Locals: locals, Stack: stack}
	}
	return out, nil
}

// Slots returns how many local or stack slots a verification type takes.
func (v VType) Slots() int {
	if v.Tag == VLong || v.Tag == VDouble {
		return 2
	}
	return 1
}
