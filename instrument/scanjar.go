package instrument

import (
	"fmt"
	"strconv"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/methodmap"
)

// ScanInstrumented lists every method with code of a jar or class directory
// (instrumented or not) and the ids injected into it, for checking a jar
// against its method map (methodmap.CheckJar). Names are the ones in the
// class files: for an obfuscated jar the caller maps them back.
//
// In beat mode an injected id is the int constant pushed (iconst, bipush,
// sipush, ldc/ldc_w of an Integer) right before invokestatic rt.BeatClass
// rt.Enter(I)V or rt.Exit(I)V; in systrace mode it is the decimal String
// loaded by ldc/ldc_w right before invokestatic rt.TraceClass
// rt.Begin(Ljava/lang/String;)V. A runtime call with any other argument
// (an app calling the runtime itself with a computed value or a section
// name) carries no id and is not reported.
//
// Methods come in entry order (a directory's files sorted by path), then
// declaration order. Multi-release variants (META-INF/versions/N/...) are
// listed too: they are classes of the jar and were instrumented alike.
// A class that cannot be parsed is an error naming the input, the entry
// and the reason.
func ScanInstrumented(path string, rt Runtime) ([]methodmap.InstrumentedMethod, error) {
	in, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer in.close()
	m := newInjectionMatcher(rt)
	var out []methodmap.InstrumentedMethod
	for i := range in.entries {
		e := &in.entries[i]
		if !e.isClass() {
			continue
		}
		data, err := e.read()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, e.name, err)
		}
		if out, err = m.scanClass(data, out); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, e.name, err)
		}
	}
	return out, nil
}

// injectionMatcher recognises the runtime calls of one Runtime.
type injectionMatcher struct {
	rt Runtime
}

func newInjectionMatcher(rt Runtime) *injectionMatcher {
	if rt.BeatClass == "" {
		mode := rt.Mode
		rt = DefaultRuntime()
		rt.Mode = mode
	}
	return &injectionMatcher{rt: rt}
}

// scanClass appends the methods with code of one class file to out.
func (m *injectionMatcher) scanClass(data []byte, out []methodmap.InstrumentedMethod) ([]methodmap.InstrumentedMethod, error) {
	c, err := cf.Parse(data)
	if err != nil {
		return nil, err
	}
	if c.Access&cf.AccModule != 0 {
		return out, nil // module-info: no methods
	}
	class, err := c.Name()
	if err != nil {
		return nil, err
	}
	for i := range c.Methods {
		mt := &c.Methods[i]
		name, desc, err := c.MemberName(mt)
		if err != nil {
			return nil, fmt.Errorf("method %d: %w", i, err)
		}
		attr, ok := c.FindAttribute(mt.Attributes, "Code")
		if !ok {
			continue
		}
		code, err := cf.DecodeCode(c.Pool, attr.Data)
		if err != nil {
			return nil, fmt.Errorf("method %s%s: %w", name, desc, err)
		}
		im := methodmap.InstrumentedMethod{Class: class, Name: name, Desc: desc, Access: mt.Access}
		for k := 1; k < len(code.Insns); k++ {
			id, ok, err := m.injectedID(c, code.Insns[k-1], code.Insns[k])
			if err != nil {
				return nil, fmt.Errorf("method %s%s: instruction %d: %w", name, desc, k, err)
			}
			if ok {
				im.InjectedIDs = append(im.InjectedIDs, id)
			}
		}
		out = append(out, im)
	}
	return out, nil
}

// injectedID reports the id that arg passes to call when call is one of
// the runtime's id-carrying methods.
func (m *injectionMatcher) injectedID(c *cf.Class, arg, call cf.Insn) (int, bool, error) {
	if call.Op != cf.INVOKESTATIC {
		return 0, false, nil
	}
	ref, err := c.Pool.Ref(uint16(call.A))
	if err != nil {
		return 0, false, err
	}
	if m.rt.Mode == ModeSystrace {
		if ref.Class != m.rt.TraceClass || ref.Name != m.rt.Begin || ref.Descriptor != "(Ljava/lang/String;)V" {
			return 0, false, nil
		}
		if (arg.Op != cf.LDC && arg.Op != cf.LDC_W) || c.Pool.Tag(uint16(arg.A)) != cf.TagString {
			return 0, false, nil
		}
		s, err := c.Pool.StringValue(uint16(arg.A))
		if err != nil {
			return 0, false, err
		}
		return decimalID(s)
	}
	if ref.Class != m.rt.BeatClass || (ref.Name != m.rt.Enter && ref.Name != m.rt.Exit) || ref.Descriptor != "(I)V" {
		return 0, false, nil
	}
	return pushedInt(c.Pool, arg)
}

// pushedInt returns the int constant an instruction pushes, if it is one.
func pushedInt(pool *cf.ConstantPool, in cf.Insn) (int, bool, error) {
	switch {
	case in.Op >= cf.ICONST_M1 && in.Op <= cf.ICONST_5:
		return int(in.Op) - cf.ICONST_0, true, nil
	case in.Op == cf.BIPUSH || in.Op == cf.SIPUSH:
		return int(in.A), true, nil
	case (in.Op == cf.LDC || in.Op == cf.LDC_W) && pool.Tag(uint16(in.A)) == cf.TagInteger:
		v, err := pool.Integer(uint16(in.A))
		return int(v), err == nil, err
	}
	return 0, false, nil
}

// decimalID reads a section name written as an id: decimal digits only,
// no sign, no leading zero (strconv.Itoa's form).
func decimalID(s string) (int, bool, error) {
	if s == "" || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return 0, false, nil
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false, nil
		}
	}
	id, err := strconv.Atoi(s)
	return id, err == nil, nil
}

// alreadyInstrumented returns the indexes of the methods of c that already
// carry an entry call in the injected pattern, of either mode: a pushed id
// before invokestatic of the beat class's enter method, a decimal section
// name before the trace class's begin method, or the focus call. Most classes name
// neither runtime class in their constant pool and cost one pass over
// it.
func (m *injectionMatcher) alreadyInstrumented(c *cf.Class) (map[int]bool, error) {
	if !m.poolNamesRuntime(c.Pool) {
		return nil, nil
	}
	var found map[int]bool
	for i := range c.Methods {
		attr, ok := c.FindAttribute(c.Methods[i].Attributes, "Code")
		if !ok {
			continue
		}
		code, err := cf.DecodeCode(c.Pool, attr.Data)
		if err != nil {
			return nil, err
		}
		for k := 1; k < len(code.Insns); k++ {
			if m.entryCall(c, code.Insns[k-1], code.Insns[k]) {
				if found == nil {
					found = map[int]bool{}
				}
				found[i] = true
				break
			}
		}
	}
	return found, nil
}

// poolNamesRuntime reports whether the pool holds the name of the beat
// class or of the trace class.
func (m *injectionMatcher) poolNamesRuntime(pool *cf.ConstantPool) bool {
	for i := 1; i < pool.Count(); i++ {
		if pool.Tag(uint16(i)) != cf.TagUtf8 {
			continue
		}
		b, err := pool.Utf8Bytes(uint16(i))
		if err != nil {
			continue
		}
		if string(b) == m.rt.BeatClass || string(b) == m.rt.TraceClass {
			return true
		}
	}
	return false
}

// entryCall reports whether arg and call are an injected entry call of
// either mode.
func (m *injectionMatcher) entryCall(c *cf.Class, arg, call cf.Insn) bool {
	if call.Op != cf.INVOKESTATIC {
		return false
	}
	ref, err := c.Pool.Ref(uint16(call.A))
	if err != nil {
		return false
	}
	switch {
	case ref.Class == m.rt.BeatClass && ref.Name == m.rt.Focus && ref.Descriptor == focusCallDesc:
		return true // the focus call, in an Activity's onWindowFocusChanged
	case ref.Class == m.rt.BeatClass && ref.Name == m.rt.Enter && ref.Descriptor == "(I)V":
		_, ok, err := pushedInt(c.Pool, arg)
		return ok && err == nil
	case ref.Class == m.rt.TraceClass && ref.Name == m.rt.Begin && ref.Descriptor == "(Ljava/lang/String;)V":
		if (arg.Op != cf.LDC && arg.Op != cf.LDC_W) || c.Pool.Tag(uint16(arg.A)) != cf.TagString {
			return false
		}
		s, err := c.Pool.StringValue(uint16(arg.A))
		if err != nil {
			return false
		}
		_, ok, _ := decimalID(s)
		return ok
	}
	return false
}
