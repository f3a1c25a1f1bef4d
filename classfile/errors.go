package classfile

import (
	"errors"
	"fmt"
)

// FormatError reports malformed class-file or Code bytes. Offset is the
// byte position where the problem was found: within the class file for
// class-level errors, within the code array for instruction errors (Where
// says which).
type FormatError struct {
	Where  string // "class", "code", or an attribute name
	Offset int
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s offset %d: %s", e.Where, e.Offset, e.Msg)
}

// ErrPoolFull is returned (wrapped) when an addition would take the
// constant pool past 65535 entries.
var ErrPoolFull = errors.New("constant pool full")

// ErrCodeTooLarge is returned (wrapped) when encoded code would pass 65535 bytes.
var ErrCodeTooLarge = errors.New("code too large")

// ErrBranchOverflow is returned (wrapped) when a 16-bit branch offset
// cannot reach its target after layout.
var ErrBranchOverflow = errors.New("branch offset overflow")

func formatErr(where string, off int, format string, args ...any) error {
	return &FormatError{Where: where, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
