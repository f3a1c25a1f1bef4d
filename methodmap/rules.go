package methodmap

import cf "github.com/tracebeat/tracebeat/classfile"

// MethodInfo is what the rules need to know about one method. The caller
// fills it from the class file.
type MethodInfo struct {
	ClassAccess uint16 // access flags of the declaring class
	Access      uint16 // access flags of the method
	Name        string // "<init>" marks a constructor
	Desc        string
	// Opcodes is the method's instruction opcodes in code order, without
	// operands; nil when the method has no Code attribute. A WIDE prefix may
	// be listed but must then be followed by the opcode it widens; the rules
	// skip WIDE, as ASM's instruction list (which Matrix used) has no WIDE.
	Opcodes []byte
	// Blocked is set by the caller when the block list matches the class.
	Blocked bool
}

// Options switch off Matrix's ignore rules. The zero value is Matrix's
// default: every rule active.
type Options struct {
	TraceAbstractClasses bool // also trace methods with code in abstract classes and interfaces
	TraceEmpty           bool // also trace methods whose code is only a return
	TraceGetterSetter    bool // also trace getters, setters and trivial constructors
	TraceSingle          bool // also trace methods that call nothing
	// TraceAll switches off all four rules above. Methods without code
	// (native, abstract) are still never traced, and the block list still
	// applies: it is the user's explicit choice, not a heuristic.
	TraceAll bool
}

func (o Options) effective() Options {
	if o.TraceAll {
		o.TraceAbstractClasses = true
		o.TraceEmpty = true
		o.TraceGetterSetter = true
		o.TraceSingle = true
	}
	return o
}

// Classify returns Traced or the first reason, in this order, why the method
// is ignored:
//
//	blocked, interface, abstract-class   (whole class)
//	empty or no-code                     (no Code: native/abstract)
//	empty                                (code is nothing but return)
//	getter-setter, single
//
// Matrix's own "empty" test only caught methods without any instruction;
// a method whose only instruction is a return fell through to its
// getter/setter test. The decision is the same with default options; here
// such a method is called empty (as the Matrix docs describe it), so that
// switching on getter/setter and single tracing does not start tracing
// empty methods.
func Classify(m MethodInfo, o Options) Reason {
	o = o.effective()
	switch {
	case m.Blocked:
		return ReasonBlocked
	case !o.TraceAbstractClasses && m.ClassAccess&accInterface != 0:
		return ReasonInterface
	case !o.TraceAbstractClasses && m.ClassAccess&accAbstract != 0:
		return ReasonAbstractClass
	}
	ops := withoutWide(m.Opcodes)
	if len(ops) == 0 || m.Access&(accNative|accAbstract) != 0 {
		if o.TraceEmpty {
			return ReasonNoCode // nothing to inject into, whatever the options say
		}
		return ReasonEmpty
	}
	switch {
	case !o.TraceEmpty && isReturnOnly(ops):
		return ReasonEmpty
	case !o.TraceGetterSetter && isGetterSetter(ops, m.Name == "<init>"):
		return ReasonGetterSetter
	case !o.TraceSingle && isSingle(ops):
		return ReasonSingle
	}
	return Traced
}

func withoutWide(ops []byte) []byte {
	n := 0
	for _, op := range ops {
		if op != cf.WIDE {
			n++
		}
	}
	if n == len(ops) {
		return ops
	}
	out := make([]byte, 0, n)
	for _, op := range ops {
		if op != cf.WIDE {
			out = append(out, op)
		}
	}
	return out
}

// isReturnOnly: no real instruction, only returns (and NOPs, which javac
// never emits but which do nothing either).
func isReturnOnly(ops []byte) bool {
	for _, op := range ops {
		if op != cf.NOP && !cf.Opcode(op).IsReturn() {
			return false
		}
	}
	return true
}

// isGetterSetter: only constants, loads and array loads (opcode <= SALOAD),
// GET/PUTFIELD, GET/PUTSTATIC and returns; a constructor may also contain one
// INVOKESPECIAL (its super() or this() call).
func isGetterSetter(ops []byte, constructor bool) bool {
	specials := 0
	for _, op := range ops {
		switch {
		case op <= cf.SALOAD, op >= cf.GETSTATIC && op <= cf.PUTFIELD, cf.Opcode(op).IsReturn():
		case constructor && op == cf.INVOKESPECIAL:
			specials++
			if specials > 1 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isSingle: no INVOKEVIRTUAL, INVOKESPECIAL, INVOKESTATIC, INVOKEINTERFACE or
// INVOKEDYNAMIC at all.
func isSingle(ops []byte) bool {
	for _, op := range ops {
		if op >= cf.INVOKEVIRTUAL && op <= cf.INVOKEDYNAMIC {
			return false
		}
	}
	return true
}
