package rewrite

import (
	"errors"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// Reasons a planned method was left untouched. They appear in the report
// and in the one-line summary.
const (
	ReasonCodeTooLarge   = "code-too-large"
	ReasonPoolFull       = "constant-pool-full"
	ReasonBranchOverflow = "branch-overflow"
	ReasonStackOverflow  = "max-stack-overflow"
	ReasonCtorFlow       = "constructor-flow"
	ReasonMalformedCode  = "malformed-code"
	ReasonJVMRoot        = "jvm-root-class"
	// ReasonAlreadyInstrumented: the method already calls the runtime at
	// its entry in the injected pattern (a jar instrumented before).
	ReasonAlreadyInstrumented = "already-instrumented"
)

// ReasonOf classifies a rewrite error.
func ReasonOf(err error) string {
	switch {
	case errors.Is(err, cf.ErrCodeTooLarge):
		return ReasonCodeTooLarge
	case errors.Is(err, cf.ErrPoolFull):
		return ReasonPoolFull
	case errors.Is(err, cf.ErrBranchOverflow):
		return ReasonBranchOverflow
	case errors.Is(err, errStackOverflow):
		return ReasonStackOverflow
	case errors.Is(err, errCtorFlow):
		return ReasonCtorFlow
	}
	return ReasonMalformedCode
}

var (
	errStackOverflow = errors.New("max_stack would pass 65535")
	errCtorFlow      = errors.New("constructor data flow")
)
