package classfile

// Label names a position in a method's code. Positions are resolved to byte
// offsets only when the code is encoded, so instructions can be inserted
// freely. The zero Label means "no label".
type Label int32

// NoLabel is the zero Label.
const NoLabel Label = 0

// Insn is one instruction. Operands live in A and B; their meaning depends
// on the opcode:
//
//	local loads/stores, ret:        A = local index
//	bipush, sipush:                 A = value
//	ldc, ldc_w, ldc2_w, field/method/class refs, new: A = constant-pool index
//	newarray:                       A = array type
//	iinc:                           A = local index, B = delta
//	invokeinterface:                A = constant-pool index, B = count
//	invokedynamic:                  A = constant-pool index
//	multianewarray:                 A = constant-pool index, B = dimensions
//	tableswitch, lookupswitch:      A = index into Code.Switches
//	branches:                       Target
//
// Mark is the label defined at this instruction (NoLabel when nothing
// refers to it). Wide records a `wide` prefix, so an unnecessary prefix in
// the input survives a round trip.
type Insn struct {
	Op     Opcode
	Wide   bool
	Mark   Label
	A, B   int32
	Target Label
}

// Switch holds the operands of a tableswitch (Keys nil: keys run from Low)
// or a lookupswitch (Keys parallel to Targets).
type Switch struct {
	Default Label
	Low     int32
	Keys    []int32
	Targets []Label
}

// Handler is one exception-table entry. CatchType 0 catches everything.
type Handler struct {
	Start, End, Handler Label
	CatchType           uint16
}

// Code is a decoded Code attribute.
type Code struct {
	MaxStack, MaxLocals uint16
	Insns               []Insn
	Switches            []Switch
	Handlers            []Handler
	// End is the label of the position after the last instruction (used by
	// exception ranges and local-variable ranges that run to the end).
	End Label
	// Attributes of the Code attribute, in their original order.
	Attributes []CodeAttribute

	numLabels int32
}

// NewLabel allocates a label that is not yet placed.
func (c *Code) NewLabel() Label {
	c.numLabels++
	return Label(c.numLabels)
}

// NumLabels returns one more than the highest label allocated.
func (c *Code) NumLabels() int { return int(c.numLabels) + 1 }

// CodeAttributeKind says how an attribute of the Code attribute is held.
type CodeAttributeKind uint8

const (
	AttrRaw                      CodeAttributeKind = iota // kept as bytes
	AttrStackMapTable                                     // Frames
	AttrLineNumberTable                                   // Lines
	AttrLocalVariableTable                                // Locals
	AttrLocalVariableTypeTable                            // Locals (Descriptor holds the signature)
	AttrVisibleTypeAnnotations                            // TypeAnnotations
	AttrInvisibleTypeAnnotations                          // TypeAnnotations
)

// CodeAttribute is an attribute nested in Code. Attributes that carry code
// offsets are decoded to labels; all others stay raw.
type CodeAttribute struct {
	Kind            CodeAttributeKind
	Name            uint16
	Raw             []byte
	Frames          []Frame
	Lines           []LineNumber
	Locals          []LocalVariable
	TypeAnnotations []TypeAnnotation
}

// LineNumber is a LineNumberTable entry.
type LineNumber struct {
	Start Label
	Line  uint16
}

// LocalVariable is a LocalVariableTable or LocalVariableTypeTable entry.
type LocalVariable struct {
	Start, End Label
	Name       uint16
	Descriptor uint16 // the signature index for LocalVariableTypeTable
	Index      uint16
}

// StackMapTable returns the frames attribute, nil when there is none.
func (c *Code) StackMapTable() *CodeAttribute {
	for i := range c.Attributes {
		if c.Attributes[i].Kind == AttrStackMapTable {
			return &c.Attributes[i]
		}
	}
	return nil
}
