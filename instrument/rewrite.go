package instrument

import (
	"fmt"
	"strconv"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// MethodPlan says what to do with one method of a class.
type MethodPlan struct {
	Index int  // into Class.Methods
	ID    int  // method id, used when Trace is set
	Trace bool // inject enter/exit and the catch-all handler
	Focus bool // call the focus runtime at the start (onWindowFocusChanged(Z)V)
}

// MethodOutcome reports a planned method that was left untouched.
type MethodOutcome struct {
	Index  int
	Reason string
	Err    error
}

// classRewriter holds the constant-pool entries one class needs, added on
// first use.
type classRewriter struct {
	c     *cf.Class
	rt    *Runtime
	name  string
	refs  map[string]uint16
	dirty bool
}

func newClassRewriter(c *cf.Class, rt *Runtime) (*classRewriter, error) {
	name, err := c.Name()
	if err != nil {
		return nil, err
	}
	return &classRewriter{c: c, rt: rt, name: name, refs: map[string]uint16{}}, nil
}

// method returns the Methodref index for a static runtime method.
func (w *classRewriter) method(class, name, desc string) (uint16, error) {
	key := class + "." + name + desc
	if i, ok := w.refs[key]; ok {
		return i, nil
	}
	i, err := w.c.Pool.AddMethodref(class, name, desc)
	if err != nil {
		return 0, err
	}
	w.refs[key] = i
	return i, nil
}

// pushInt returns the shortest instruction pushing v.
func (w *classRewriter) pushInt(v int) (cf.Insn, error) {
	switch {
	case v >= -1 && v <= 5:
		return cf.Insn{Op: uint8(cf.ICONST_0 + v)}, nil
	case v >= -128 && v <= 127:
		return cf.Insn{Op: cf.BIPUSH, A: int32(v)}, nil
	case v >= -32768 && v <= 32767:
		return cf.Insn{Op: cf.SIPUSH, A: int32(v)}, nil
	}
	i, err := w.c.Pool.AddInteger(int32(v))
	if err != nil {
		return cf.Insn{}, err
	}
	return ldc(i), nil
}

// ldc loads constant i; the encoder widens it to ldc_w past index 255.
func ldc(i uint16) cf.Insn { return cf.Insn{Op: cf.LDC, A: int32(i)} }

func invokestatic(i uint16) cf.Insn { return cf.Insn{Op: cf.INVOKESTATIC, A: int32(i)} }

// entry returns the code run when a traced method starts.
func (w *classRewriter) entry(id int) ([]cf.Insn, error) {
	if w.rt.Mode == ModeSystrace {
		s, err := w.c.Pool.AddString(strconv.Itoa(id))
		if err != nil {
			return nil, err
		}
		m, err := w.method(w.rt.TraceClass, w.rt.Begin, "(Ljava/lang/String;)V")
		if err != nil {
			return nil, err
		}
		return []cf.Insn{ldc(s), invokestatic(m)}, nil
	}
	push, err := w.pushInt(id)
	if err != nil {
		return nil, err
	}
	m, err := w.method(w.rt.BeatClass, w.rt.Enter, "(I)V")
	if err != nil {
		return nil, err
	}
	return []cf.Insn{push, invokestatic(m)}, nil
}

// exit returns the stack-neutral code run before every way out.
func (w *classRewriter) exit(id int) ([]cf.Insn, error) {
	if w.rt.Mode == ModeSystrace {
		m, err := w.method(w.rt.TraceClass, w.rt.End, "()V")
		if err != nil {
			return nil, err
		}
		return []cf.Insn{invokestatic(m)}, nil
	}
	push, err := w.pushInt(id)
	if err != nil {
		return nil, err
	}
	m, err := w.method(w.rt.BeatClass, w.rt.Exit, "(I)V")
	if err != nil {
		return nil, err
	}
	return []cf.Insn{push, invokestatic(m)}, nil
}

// focusCall returns `at(this, hasFocus)` for onWindowFocusChanged(Z)V.
func (w *classRewriter) focusCall() ([]cf.Insn, error) {
	m, err := w.method(w.rt.BeatClass, w.rt.Focus, focusCallDesc)
	if err != nil {
		return nil, err
	}
	const iload1 = 0x1b
	return []cf.Insn{{Op: cf.ALOAD_0}, {Op: iload1}, invokestatic(m)}, nil
}

// rewriteMethod instruments one method in place. On error the method is
// unchanged (the constant pool may have grown by unused entries).
func (w *classRewriter) rewriteMethod(p MethodPlan) error {
	m := &w.c.Methods[p.Index]
	attr, ok := w.c.FindAttribute(m.Attributes, "Code")
	if !ok {
		return fmt.Errorf("method has no code")
	}
	name, desc, err := w.c.MemberName(m)
	if err != nil {
		return err
	}
	code, err := cf.DecodeCode(w.c.Pool, attr.Data)
	if err != nil {
		return err
	}
	isCtor := name == "<init>" && w.name != "java/lang/Object"
	var flow *ctorFlow
	if p.Trace && isCtor {
		if flow, err = analyzeCtor(code, w.c.Pool, desc, m.Access&cf.AccStatic != 0); err != nil {
			return fmt.Errorf("%w: %v", errCtorFlow, err)
		}
	}

	var enter, exit, focus []cf.Insn
	if p.Trace {
		if enter, err = w.entry(p.ID); err != nil {
			return err
		}
		if exit, err = w.exit(p.ID); err != nil {
			return err
		}
	}
	if p.Focus {
		if focus, err = w.focusCall(); err != nil {
			return err
		}
	}

	in := code.Insns
	out := make([]cf.Insn, 0, len(in)+len(enter)+len(focus)+len(exit)*4+4)
	covered := make([]bool, 0, cap(out))
	emit := func(cov bool, seq ...cf.Insn) {
		out = append(out, seq...)
		for range seq {
			covered = append(covered, cov)
		}
	}
	if !isCtor || !p.Trace {
		emit(false, enter...)
	}
	emit(false, focus...)
	for i := range in {
		ins := in[i]
		cov := p.Trace && (flow == nil || !flow.uninit[i])
		if p.Trace && cf.IsReturn(ins.Op) {
			// Branches to the return now reach the exit code first.
			seq := append([]cf.Insn(nil), exit...)
			seq[0].Mark, ins.Mark = ins.Mark, cf.NoLabel
			emit(cov, seq...)
		}
		emit(cov, ins)
		if flow != nil && flow.initCall[i] {
			emit(false, enter...)
		}
	}
	if p.Trace {
		if err := w.addCatchAll(code, &out, covered, exit); err != nil {
			return err
		}
	}
	code.Insns = out

	need := int(code.MaxStack) + 1
	if p.Trace || p.Focus {
		need = max(need, 2)
	}
	if need > 0xFFFF {
		return errStackOverflow
	}
	code.MaxStack = uint16(need)
	data, err := code.Encode()
	if err != nil {
		return err
	}
	attr.Data = data
	w.dirty = true
	return nil
}

// addCatchAll appends the handler that runs the exit code and rethrows,
// and exception-table entries (last in the table) covering every run of
// covered instructions.
func (w *classRewriter) addCatchAll(code *cf.Code, out *[]cf.Insn, covered []bool, exit []cf.Insn) error {
	ins := *out
	var ranges [][2]int
	for i := 0; i < len(ins); {
		if !covered[i] {
			i++
			continue
		}
		j := i
		for j < len(ins) && covered[j] {
			j++
		}
		ranges = append(ranges, [2]int{i, j})
		i = j
	}
	if len(ranges) == 0 {
		return nil
	}
	// The old end of the code is where the handler starts: ranges and
	// local variables that ran to the end keep ending there.
	handler := code.End
	if handler == cf.NoLabel {
		handler = code.NewLabel()
	}
	code.End = cf.NoLabel
	markAt := func(i int) cf.Label {
		if i == len(ins) {
			return handler
		}
		if ins[i].Mark == cf.NoLabel {
			ins[i].Mark = code.NewLabel()
		}
		return ins[i].Mark
	}
	for _, r := range ranges {
		code.Handlers = append(code.Handlers, cf.Handler{Start: markAt(r[0]), End: markAt(r[1]), Handler: handler})
	}
	seq := append(append([]cf.Insn(nil), exit...), cf.Insn{Op: cf.ATHROW})
	seq[0].Mark = handler
	*out = append(ins, seq...)

	if w.c.Major < 50 {
		return nil
	}
	throwable, err := w.c.Pool.AddClass(throwableClass)
	if err != nil {
		return err
	}
	smt := code.StackMapTable()
	if smt == nil {
		name, err := w.c.Pool.AddUtf8(stackMapTableName)
		if err != nil {
			return err
		}
		code.Attributes = append(code.Attributes, cf.CodeAttribute{Kind: cf.AttrStackMapTable, Name: name})
		smt = &code.Attributes[len(code.Attributes)-1]
	}
	smt.Frames = append(smt.Frames, cf.Frame{
		Kind:  cf.FrameFull,
		At:    handler,
		Stack: []cf.VType{{Tag: cf.VObject, Class: throwable}},
	})
	return nil
}
