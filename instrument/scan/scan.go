package scan

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/tracebeat/tracebeat/instrument/jario"

	"github.com/tracebeat/tracebeat/methodmap"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
)

// MethodFacts is what a Policy sees of a method to decide whether to trace it.
type MethodFacts struct {
	Key         methodmap.MethodKey
	ClassAccess uint16
	Access      uint16
	// Opcodes of the method in order (wide folded in); nil without code.
	Opcodes []byte
	// Annotations are the type descriptors of the method's annotations
	// (visible and invisible), when Policy.Annotations asks for them.
	Annotations []string
}

// Class is what the scan keeps of one class entry. A build has a
// record per class for the whole run (200,000 in a large one), so the
// record is kept to 96 bytes: texts that repeat are codes (blocked,
// rule) or shared strings (super is interned, name shares the entry's
// name when they agree).
type Class struct {
	Name     string // as in the input
	Super    string
	OrigName string
	Methods  []Method // in the order of the class file
	// Texts is the run's table of the methods' names and descriptors.
	Texts     *TextTable
	Access    uint16
	Versioned bool
	// crcWrong: the entry's contents did not match its CRC (kept in the
	// cache with the scan, so a run that reuses the scan warns as well).
	CRCWrong bool
	// FocusAt is the index of a declared onWindowFocusChanged(Z)V, or
	// noFocus (a class has at most 65535 methods).
	FocusAt   uint16
	FocusCode bool // ... and whether it has code
	// FocusSuper: that method calls super.onWindowFocusChanged somewhere.
	FocusSuper bool
	// Blocked is the reason the class is not traced at all, 0 when it is.
	Blocked ReasonCode
	// Rule is the policy rule that decided about the class as a whole
	// (Policy.ClassRule), counted in Result.RuleClasses.
	Rule ReasonCode
}

// NoFocus is Class.FocusAt of a class without onWindowFocusChanged.
const NoFocus = math.MaxUint16

// FocusIndex is the index of the class's onWindowFocusChanged(Z)V, or -1.
func (ci *Class) FocusIndex() int {
	if ci.FocusAt == NoFocus {
		return -1
	}
	return int(ci.FocusAt)
}

// BlockedText and RuleText are the texts of blocked and rule ("" for none).
func (ci *Class) BlockedText() string { return Reasons.Text(ci.Blocked) }
func (ci *Class) RuleText() string    { return Reasons.Text(ci.Rule) }

// Method is the scan's record of one method. A build has a million
// and they live through the whole run, so the record holds no pointer (its
// name and descriptor are indexes into the run's text table, its reason
// and rule codes): the garbage collector never has to scan them, and a
// record takes 24 bytes instead of the 96 that five strings took.
type Method struct {
	Name   uint32 // the original name's index in Class.Texts
	Desc   uint32 // the original descriptor's index in Class.Texts
	ID     int32  // set by plan for traced methods
	Reason ReasonCode
	Rule   ReasonCode // the policy rule that decided the method, if one did
	Access uint16
	Trace  bool
}

// Key returns the original key of method m of the class.
func (ci *Class) Key(m *Method) methodmap.MethodKey {
	return methodmap.MethodKey{Class: ci.OrigName, Name: ci.Texts.Str(m.Name), Desc: ci.Texts.Str(m.Desc)}
}

// Scanner is one worker's state for the scan: scratch space and an
// intern table of the names and descriptors it decodes, so the common
// ones ("<init>", "()V", ...) are not allocated again for every method
// (what the scan keeps is copied into Class.Texts).
type Scanner struct {
	pol      *Policy
	injected *injectionMatcher // recognises code instrumented before
	texts    *TextTable
	hasClass func(origClass string) bool // for Policy.Generated
	scratch  []byte
	strs     map[string]string
	records  []Method              // the rest of the chunk methodRecords cuts from
	reasons  map[string]ReasonCode // this worker's view of the reason table
}

// maxInterned bounds a scanner's table; past it the table starts over.
const maxInterned = 1 << 14

func NewScanner(pol *Policy, rt rewrite.Runtime, texts *TextTable, hasClass func(string) bool) *Scanner {
	return &Scanner{pol: pol, injected: newInjectionMatcher(rt), texts: texts, hasClass: hasClass,
		strs: map[string]string{}, reasons: map[string]ReasonCode{}}
}

// reason returns the code of a reason text.
func (s *Scanner) reason(text string) ReasonCode {
	if text == "" {
		return 0
	}
	c, ok := s.reasons[text]
	if !ok {
		c = Reasons.Code(text)
		s.reasons[text] = c
	}
	return c
}

// utf8 returns a Utf8 constant as an interned string.
func (s *Scanner) utf8(pool *cf.ConstantPool, i uint16) (string, error) {
	b, err := pool.Utf8Bytes(i)
	if err != nil {
		return "", err
	}
	if v, ok := s.strs[string(b)]; ok {
		return v, nil
	}
	v, err := pool.Utf8(i)
	if err != nil {
		return "", err
	}
	if len(s.strs) >= maxInterned {
		clear(s.strs)
	}
	s.strs[string(b)] = v
	return v, nil
}

// className returns the name of Class constant i. A class's own name
// (file is its entry's name) shares the entry name's bytes when the two
// agree, as they do for all but a few entries; other names are interned
// (a build's classes share a few hundred superclasses).
func (s *Scanner) className(pool *cf.ConstantPool, i uint16, file string) (string, error) {
	at, err := pool.ClassNameIndex(i)
	if err != nil {
		return "", err
	}
	if file != "" {
		b, err := pool.Utf8Bytes(at)
		if err != nil {
			return "", err
		}
		// Modified UTF-8 is UTF-8 but for NUL and supplementary
		// characters, which are not valid UTF-8: bytes that are valid
		// UTF-8 decode to themselves.
		if stem := classStem(file); stem == string(b) && utf8.ValidString(stem) {
			return stem, nil
		}
		return pool.Utf8(at)
	}
	return s.utf8(pool, at)
}

// classStem is a class entry's name less ".class" and a multi-release
// prefix.
func classStem(file string) string {
	if _, ok := jario.VersionedClass(file); ok {
		rest := strings.TrimPrefix(file, "META-INF/versions/")
		file = rest[strings.IndexByte(rest, '/')+1:]
	}
	return strings.TrimSuffix(file, ".class")
}

// methodRecords returns a slice of n records. Records are cut from
// shared chunks: a slice of its own per class would round up to the
// allocator's size classes, a third more over a build.
func (s *Scanner) methodRecords(n int) []Method {
	const chunk = 4096
	if n > chunk/4 {
		return make([]Method, n)
	}
	if len(s.records) < n {
		s.records = make([]Method, chunk)
	}
	r := s.records[:n:n]
	s.records = s.records[n:]
	return r
}

// Scan parses a class and decides, method by method, what to trace. file
// is the entry's name, whose stem is most often the class's name.
func (s *Scanner) Scan(data []byte, file string) (*Class, error) {
	pol := s.pol
	c, err := cf.Parse(data)
	if err != nil {
		return nil, err
	}
	name, err := s.className(c.Pool, c.ThisClass, file)
	if err != nil {
		return nil, err
	}
	var super string
	if c.SuperClass != 0 {
		if super, err = s.className(c.Pool, c.SuperClass, ""); err != nil {
			return nil, err
		}
	}
	ci := &Class{Name: name, Super: super, Access: c.Access, FocusAt: NoFocus, Texts: s.texts}
	ci.OrigName = pol.OriginalName(name)
	if c.Access&cf.AccModule != 0 {
		return ci, nil
	}
	blocked, rule := pol.BlockedFor(ci.OrigName, s.hasClass), pol.classRule(ci.OrigName)
	if name == "java/lang/Object" {
		// HotSpot rewrites the returns of Object.<init> and relies on its
		// shape during bootstrap; a patched java.base with a traced Object
		// crashes the VM. Nothing else derives from tracing it.
		blocked = rewrite.ReasonJVMRoot
	}
	ci.Blocked, ci.Rule = s.reason(blocked), s.reason(rule)
	already, err := s.injected.alreadyInstrumented(c)
	if err != nil {
		return nil, err
	}
	ci.Methods = s.methodRecords(len(c.Methods))
	for i := range c.Methods {
		m := &c.Methods[i]
		mname, err := s.utf8(c.Pool, m.Name)
		if err != nil {
			return nil, fmt.Errorf("method %d: %w", i, err)
		}
		mdesc, err := s.utf8(c.Pool, m.Descriptor)
		if err != nil {
			return nil, fmt.Errorf("method %d: %w", i, err)
		}
		on, od := pol.originalMethod(name, mname, mdesc)
		nameIndex, ok1 := s.texts.intern(on)
		desc, ok2 := s.texts.intern(od)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("method %d: more distinct names and descriptors than a run can hold", i)
		}
		mi := Method{Access: m.Access, Name: nameIndex, Desc: desc}
		codeAttr, hasCode := c.FindAttribute(m.Attributes, "Code")
		if mname == rewrite.FocusMethod && mdesc == rewrite.FocusMethodDesc && m.Access&cf.AccStatic == 0 {
			ci.FocusAt, ci.FocusCode = uint16(i), hasCode
			if hasCode {
				if ci.FocusSuper, err = callsSuperFocus(c, codeAttr.Data); err != nil {
					return nil, fmt.Errorf("method %s%s: %w", mname, mdesc, err)
				}
			}
		}
		facts := MethodFacts{Key: methodmap.MethodKey{Class: ci.OrigName, Name: on, Desc: od}, ClassAccess: c.Access, Access: m.Access}
		if pol.Annotations {
			for _, attr := range []string{"RuntimeVisibleAnnotations", "RuntimeInvisibleAnnotations"} {
				if a, ok := c.FindAttribute(m.Attributes, attr); ok {
					types, err := cf.AnnotationTypes(c.Pool, a.Data)
					if err != nil {
						return nil, fmt.Errorf("method %s%s: %w", mname, mdesc, err)
					}
					facts.Annotations = append(facts.Annotations, types...)
				}
			}
		}
		if hasCode {
			code, err := cf.CodeBytes(codeAttr.Data)
			if err != nil {
				return nil, fmt.Errorf("method %s%s: %w", mname, mdesc, err)
			}
			if facts.Opcodes, err = cf.AppendOpcodes(s.scratch[:0], code); err != nil {
				return nil, fmt.Errorf("method %s%s: %w", mname, mdesc, err)
			}
			s.scratch = facts.Opcodes
		}
		var reason, methodRule string
		switch {
		case blocked == rewrite.ReasonJVMRoot:
			reason = rewrite.ReasonJVMRoot
		case blocked != "":
			// The methods of a blocked class count for its class rule
			// when that rule is the one that blocked it (not, say, an
			// allow rule over a generated class).
			reason = string(methodmap.ReasonBlocked)
			if blocked == rule {
				methodRule = rule
			}
		case already[i]:
			reason = rewrite.ReasonAlreadyInstrumented
		default:
			mi.Trace, reason, methodRule = pol.decide(&facts)
		}
		mi.Reason, mi.Rule = s.reason(reason), s.reason(methodRule)
		ci.Methods[i] = mi
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
		if ref.Name == rewrite.FocusMethod && ref.Descriptor == rewrite.FocusMethodDesc {
			return true, nil
		}
	}
	return false, nil
}
