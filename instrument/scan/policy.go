package scan

import "github.com/tracebeat/tracebeat/methodmap"

// Policy is how the pipeline learns original names, blocked classes and
// which methods to trace. Every field is optional.
type Policy struct {
	// OriginalClass maps an input (possibly obfuscated) class name to its
	// original name.
	OriginalClass func(name string) string
	// OriginalMethod maps an input method to its original name and descriptor.
	OriginalMethod func(class, name, desc string) (string, string)
	// Blocked reports whether an original class name is never touched, and
	// the rule that blocks it.
	Blocked func(origClass string) (rule string, blocked bool)
	// Generated reports whether an original class name is one the
	// Android build generates (never traced), and the rule that says so.
	// hasClass tells whether a class (original name) is among the inputs
	// or the class path; it knows the classes GeneratedEvidence accepts,
	// and only those. Nil: no class is generated.
	Generated         func(origClass string, hasClass func(origClass string) bool) (rule string, generated bool)
	GeneratedEvidence func(origClass string) bool
	// Decide says whether to trace a method, or why not, and which of the
	// policy's rules decided it ("" when none did: Result.RuleMethods
	// counts the methods per rule). The default traces every method with
	// code.
	Decide func(f *MethodFacts) (trace bool, reason, rule string)
	// ClassRule names the rule that decides about a class as a whole: one
	// that blocks it, or one that lets it through (an allow list); ""
	// when none does. Result.RuleClasses counts the classes per rule, and
	// the methods of a class Blocked blocks count for its rule when
	// Blocked names the same rule text. Nil: no rule.
	ClassRule func(origClass string) string
	// Annotations makes the scan give Decide each method's annotation
	// types (MethodFacts.Annotations).
	Annotations bool
	// BaseMap, when set, keeps the ids of a previous build.
	BaseMap *methodmap.Map
}

// OriginalName is the original name of class name (itself without OriginalClass).
func (p *Policy) OriginalName(name string) string {
	if p.OriginalClass == nil {
		return name
	}
	return p.OriginalClass(name)
}

func (p *Policy) originalMethod(class, name, desc string) (string, string) {
	if p.OriginalMethod == nil {
		return name, desc
	}
	return p.OriginalMethod(class, name, desc)
}

func (p *Policy) blocked(orig string) (string, bool) {
	if p.Blocked == nil {
		return "", false
	}
	return p.Blocked(orig)
}

// BlockedFor returns the rule that blocks an original class name, a
// block-list rule first, then the generated-class rule; "" when none does.
func (p *Policy) BlockedFor(orig string, hasClass func(string) bool) string {
	if rule, ok := p.blocked(orig); ok {
		return rule
	}
	if p.Generated != nil {
		if rule, ok := p.Generated(orig, hasClass); ok {
			return rule
		}
	}
	return ""
}

func (p *Policy) decide(f *MethodFacts) (trace bool, reason, rule string) {
	if p.Decide != nil {
		return p.Decide(f)
	}
	if f.Opcodes == nil {
		return false, string(methodmap.ReasonNoCode), ""
	}
	return true, "", ""
}

func (p *Policy) classRule(orig string) string {
	if p.ClassRule == nil {
		return ""
	}
	return p.ClassRule(orig)
}
