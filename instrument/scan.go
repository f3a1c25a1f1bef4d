package instrument

import (
	"fmt"

	"github.com/tracebeat/tracebeat/methodmap"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// MethodKey names a method by its original (de-obfuscated) class, name
// and descriptor; class names are internal (slashes).
type MethodKey = methodmap.MethodKey

// MethodFacts is what a Policy sees of a method to decide whether to trace it.
type MethodFacts struct {
	Key         MethodKey
	ClassAccess uint16
	Access      uint16
	// Opcodes of the method in order (wide folded in); nil without code.
	Opcodes []byte
}

// classInfo is what the scan keeps of one class entry.
type classInfo struct {
	name      string // as in the input
	super     string
	origName  string
	access    uint16
	versioned bool
	methods   []methodInfo
	// focusIndex is the index of a declared onWindowFocusChanged(Z)V, or -1.
	focusIndex int
	focusCode  bool // ... and whether it has code
	blocked    string
}

type methodInfo struct {
	index  int
	access uint16
	key    MethodKey
	trace  bool
	reason string
}

// scanClass parses a class and decides, method by method, what to trace.
func scanClass(data []byte, pol *Policy, scratch []byte) (*classInfo, error) {
	c, err := cf.Parse(data)
	if err != nil {
		return nil, err
	}
	name, err := c.Name()
	if err != nil {
		return nil, err
	}
	super, err := c.SuperName()
	if err != nil {
		return nil, err
	}
	ci := &classInfo{name: name, super: super, access: c.Access, focusIndex: -1}
	ci.origName = pol.originalClass(name)
	if c.Access&cf.AccModule != 0 {
		return ci, nil
	}
	if reason, blocked := pol.blocked(ci.origName); blocked {
		ci.blocked = reason
	}
	ci.methods = make([]methodInfo, len(c.Methods))
	for i := range c.Methods {
		m := &c.Methods[i]
		mname, mdesc, err := c.MemberName(m)
		if err != nil {
			return nil, fmt.Errorf("method %d: %w", i, err)
		}
		on, od := pol.originalMethod(name, mname, mdesc)
		mi := methodInfo{index: i, access: m.Access, key: MethodKey{Class: ci.origName, Name: on, Desc: od}}
		codeAttr, hasCode := c.FindAttribute(m.Attributes, "Code")
		if mname == focusMethod && mdesc == focusMethodDesc && m.Access&cf.AccStatic == 0 {
			ci.focusIndex, ci.focusCode = i, hasCode
		}
		facts := MethodFacts{Key: mi.key, ClassAccess: c.Access, Access: m.Access}
		if hasCode {
			code, err := cf.CodeBytes(codeAttr.Data)
			if err != nil {
				return nil, fmt.Errorf("method %s%s: %w", mname, mdesc, err)
			}
			if facts.Opcodes, err = cf.AppendOpcodes(scratch[:0], code); err != nil {
				return nil, fmt.Errorf("method %s%s: %w", mname, mdesc, err)
			}
			scratch = facts.Opcodes
		}
		if ci.blocked != "" {
			mi.reason = string(methodmap.ReasonBlocked)
		} else {
			mi.trace, mi.reason = pol.decide(&facts)
		}
		ci.methods[i] = mi
	}
	return ci, nil
}
