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
	// focusSuper: that method calls super.onWindowFocusChanged somewhere.
	focusSuper bool
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
	if name == "java/lang/Object" {
		// HotSpot rewrites the returns of Object.<init> and relies on its
		// shape during bootstrap; a patched java.base with a traced Object
		// crashes the VM. Nothing else derives from tracing it.
		ci.blocked = ReasonJVMRoot
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
			if hasCode {
				if ci.focusSuper, err = callsSuperFocus(c, codeAttr.Data); err != nil {
					return nil, fmt.Errorf("method %s%s: %w", mname, mdesc, err)
				}
			}
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
		switch {
		case ci.blocked == ReasonJVMRoot:
			mi.reason = ReasonJVMRoot
		case ci.blocked != "":
			mi.reason = string(methodmap.ReasonBlocked)
		default:
			mi.trace, mi.reason = pol.decide(&facts)
		}
		ci.methods[i] = mi
	}
	return ci, nil
}

// callsSuperFocus reports whether an onWindowFocusChanged(Z)V body calls
// super.onWindowFocusChanged(Z)V (an invokespecial of that name).
func callsSuperFocus(c *cf.Class, codeAttr []byte) (bool, error) {
	code, err := cf.DecodeCode(c.Pool, codeAttr)
	if err != nil {
		return false, err
	}
	for _, in := range code.Insns {
		if in.Op != cf.INVOKESPECIAL {
			continue
		}
		ref, err := c.Pool.Ref(uint16(in.A))
		if err != nil {
			return false, err
		}
		if ref.Name == focusMethod && ref.Descriptor == focusMethodDesc {
			return true, nil
		}
	}
	return false, nil
}
