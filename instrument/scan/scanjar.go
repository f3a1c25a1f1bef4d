package scan

import (
	"fmt"

	"github.com/tracebeat/tracebeat/instrument/jario"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
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
func ScanInstrumented(path string, rt rewrite.Runtime) ([]methodmap.InstrumentedMethod, error) {
	in, err := jario.OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	m := newInjectionMatcher(rt)
	var out []methodmap.InstrumentedMethod
	for i := range in.Entries {
		e := &in.Entries[i]
		if !e.IsClass() {
			continue
		}
		data, err := e.Read()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, e.Name, err)
		}
		if out, err = m.scanClass(data, out); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, e.Name, err)
		}
	}
	return out, nil
}

// injectionMatcher recognises the runtime calls of one Runtime.
type injectionMatcher struct {
	rt rewrite.Runtime
}

func newInjectionMatcher(rt rewrite.Runtime) *injectionMatcher {
	return &injectionMatcher{rt: rt.OrDefault()}
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
		mk := rewrite.FindInjected(code, c.Pool, m.rt)
		ids := mk.BeatIDs
		if m.rt.Mode == rewrite.ModeSystrace {
			ids = mk.SectionIDs // endSection carries no id
		}
		out = append(out, methodmap.InstrumentedMethod{Class: class, Name: name, Desc: desc, Access: mt.Access, InjectedIDs: ids})
	}
	return out, nil
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
			name, desc, _ := c.MemberName(&c.Methods[i])
			return nil, fmt.Errorf("method %s%s: %w", name, desc, err)
		}
		if mk := rewrite.FindInjected(code, c.Pool, m.rt); len(mk.EnterIDs) > 0 || mk.Focus {
			if found == nil {
				found = map[int]bool{}
			}
			found[i] = true
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
