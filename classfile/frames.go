package classfile

// Verification type tags (JVMS §4.7.4).
const (
	VTop               = 0
	VInteger           = 1
	VFloat             = 2
	VDouble            = 3
	VLong              = 4
	VNull              = 5
	VUninitializedThis = 6
	VObject            = 7
	VUninitialized     = 8
)

// VType is a verification type. Class is the Class constant of VObject;
// New is the label of the `new` instruction of VUninitialized.
type VType struct {
	Tag   uint8
	Class uint16
	New   Label
}

// FrameKind is the encoding family a frame was read in. Re-encoding keeps the
// family, so an unchanged table is byte-identical; a short form whose
// offset delta no longer fits is widened to its extended form.
type FrameKind uint8

const (
	FrameSame                FrameKind = iota // same_frame / same_frame_extended when the delta is large
	FrameSameExtended                         // same_frame_extended as read
	FrameSameLocals1                          // same_locals_1_stack_item(_extended when large)
	FrameSameLocals1Extended                  // same_locals_1_stack_item_frame_extended as read
	FrameChop                                 // chop_frame; Chop = number of locals removed
	FrameAppend                               // append_frame; Locals = the appended locals
	FrameFull                                 // full_frame
)

// Frame is one StackMapTable entry, placed at Label. Locals and Stack hold
// only what the encoding holds (see FrameKind); Expand computes full states.
type Frame struct {
	Kind   FrameKind
	At     Label
	Chop   uint8
	Locals []VType
	Stack  []VType
}
