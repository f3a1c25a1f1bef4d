package methodmap

// Reason says whether a method is traced and, if not, why. It is an open
// string type: the names are stable (they appear in the JSON report) and the
// instrumenter may define further reasons of its own.
type Reason string

// Traced is the Reason of a method that gets instrumented.
const Traced Reason = "traced"

// Reasons decided by Classify.
const (
	ReasonBlocked       Reason = "blocked"        // matched by the block list
	ReasonInterface     Reason = "interface"      // declared in an interface
	ReasonAbstractClass Reason = "abstract-class" // declared in an abstract class
	ReasonEmpty         Reason = "empty"          // no code, or nothing but return
	ReasonGetterSetter  Reason = "getter-setter"  // only loads, constants, field access, return
	ReasonSingle        Reason = "single"         // calls no other method
	ReasonNoCode        Reason = "no-code"        // native/abstract while empty methods are traced
)

// Reasons the instrumenter reports when it cannot rewrite a method safely.
const (
	ReasonCodeTooLarge     Reason = "code-too-large"
	ReasonConstantPoolFull Reason = "constant-pool-full"
	ReasonBranchOverflow   Reason = "branch-overflow"
)

// Ignored reports whether the method is left alone.
func (r Reason) Ignored() bool { return r != Traced }
