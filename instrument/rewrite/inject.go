package rewrite

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"sync"

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

// runtimeRef names one of the few runtime methods the injected code calls.
type runtimeRef int

const (
	refEnter runtimeRef = iota // BeatClass.Enter(I)V
	refExit                    // BeatClass.Exit(I)V
	refFocus                   // BeatClass.Focus(Activity, Z)V
	refBegin                   // TraceClass.Begin(String)V
	refEnd                     // TraceClass.End()V
	numRuntimeRefs
)

// classRewriter holds the constant-pool entries one class needs, added on
// first use (index 0, never a valid entry, means "not added yet"), and
// the scratch buffers its methods are rewritten in.
type classRewriter struct {
	c         *cf.Class
	rt        *Runtime
	isObject  bool // the class is java/lang/Object, whose <init> has no super() call
	refs      [numRuntimeRefs]uint16
	throwable uint16 // Class java/lang/Throwable
	smtName   uint16 // Utf8 "StackMapTable"
	dirty     bool

	// Per-method sequences, rebuilt for each method without allocating.
	enterBuf, exitBuf, focusBuf [3]cf.Insn

	s *rewriteScratch
}

// rewriteScratch holds buffers reused from method to method and, through
// scratchPool, from class to class. Nothing in it outlives the encoding of
// the method that used it.
type rewriteScratch struct {
	w        classRewriter
	out      []cf.Insn
	ranges   [][2]int
	handlers []cf.Handler
	frames   []cf.Frame
	attrs    []cf.CodeAttribute
	stack    [1]cf.VType
	ctor     ctorScratch
}

var scratchPool = sync.Pool{New: func() any { return new(rewriteScratch) }}

// newScratchRewriter returns a rewriter for c that lives in scratch taken
// from scratchPool; release hands it back.
func newScratchRewriter(c *cf.Class, rt *Runtime) (*classRewriter, error) {
	isObject, err := classIsObject(c)
	if err != nil {
		return nil, err
	}
	s := scratchPool.Get().(*rewriteScratch)
	s.w = classRewriter{c: c, rt: rt, isObject: isObject, s: s}
	s.ctor.resetClass(c.Pool)
	return &s.w, nil
}

// release hands the scratch back for another class, dropping what still
// points into this class. w is unusable afterwards.
func (w *classRewriter) release() {
	s := w.s
	clear(s.frames[:cap(s.frames)])
	clear(s.attrs[:cap(s.attrs)])
	s.ctor.resetClass(nil)
	s.w = classRewriter{}
	scratchPool.Put(s)
}

// classIsObject reports whether c is java/lang/Object, reading the name
// in place; c.Name reports a bad this_class.
func classIsObject(c *cf.Class) (bool, error) {
	const object = "java/lang/Object"
	if c.Pool.Tag(c.ThisClass) == cf.TagClass {
		if _, b, err := c.Pool.Entry(c.ThisClass); err == nil && len(b) >= 2 {
			if name, err := c.Pool.Utf8Bytes(binary.BigEndian.Uint16(b)); err == nil {
				return string(name) == object, nil
			}
		}
	}
	name, err := c.Name()
	if err != nil {
		return false, err
	}
	return name == object, nil
}

// method returns the Methodref index for a static runtime method.
func (w *classRewriter) method(r runtimeRef) (uint16, error) {
	if i := w.refs[r]; i != 0 {
		return i, nil
	}
	var class, name, desc string
	switch r {
	case refEnter:
		class, name, desc = w.rt.BeatClass, w.rt.Enter, "(I)V"
	case refExit:
		class, name, desc = w.rt.BeatClass, w.rt.Exit, "(I)V"
	case refFocus:
		class, name, desc = w.rt.BeatClass, w.rt.Focus, focusCallDesc
	case refBegin:
		class, name, desc = w.rt.TraceClass, w.rt.Begin, "(Ljava/lang/String;)V"
	case refEnd:
		class, name, desc = w.rt.TraceClass, w.rt.End, "()V"
	default:
		return 0, fmt.Errorf("unknown runtime method %d", r)
	}
	i, err := w.c.Pool.AddMethodref(class, name, desc)
	if err != nil {
		return 0, err
	}
	w.refs[r] = i
	return i, nil
}

// pushInt returns the shortest instruction pushing v.
func (w *classRewriter) pushInt(v int) (cf.Insn, error) {
	switch {
	case v >= -1 && v <= 5:
		return cf.Insn{Op: cf.Opcode(cf.ICONST_0 + v)}, nil
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

// entryExit returns the code run when a traced method starts and the
// stack-neutral code run before every way out. Constants are added to the
// pool in the order entry, then exit. The slices live in w until the next
// call.
func (w *classRewriter) entryExit(id int) (enter, exit []cf.Insn, err error) {
	if w.rt.Mode == ModeSystrace {
		s, err := w.c.Pool.AddString(strconv.Itoa(id))
		if err != nil {
			return nil, nil, err
		}
		begin, err := w.method(refBegin)
		if err != nil {
			return nil, nil, err
		}
		end, err := w.method(refEnd)
		if err != nil {
			return nil, nil, err
		}
		w.enterBuf[0], w.enterBuf[1] = ldc(s), invokestatic(begin)
		w.exitBuf[0] = invokestatic(end)
		return w.enterBuf[:2], w.exitBuf[:1], nil
	}
	// The exit pushes the same id: the constant, if any, is shared.
	push, err := w.pushInt(id)
	if err != nil {
		return nil, nil, err
	}
	in, err := w.method(refEnter)
	if err != nil {
		return nil, nil, err
	}
	out, err := w.method(refExit)
	if err != nil {
		return nil, nil, err
	}
	w.enterBuf[0], w.enterBuf[1] = push, invokestatic(in)
	w.exitBuf[0], w.exitBuf[1] = push, invokestatic(out)
	return w.enterBuf[:2], w.exitBuf[:2], nil
}

// focusCall returns `at(this, hasFocus)` for onWindowFocusChanged(Z)V. The
// slice lives in w until the next call.
func (w *classRewriter) focusCall() ([]cf.Insn, error) {
	m, err := w.method(refFocus)
	if err != nil {
		return nil, err
	}
	w.focusBuf = [3]cf.Insn{{Op: cf.ALOAD_0}, {Op: cf.ILOAD_1}, invokestatic(m)}
	return w.focusBuf[:], nil
}

// rewriteMethod instruments one method in place. On error the method is
// unchanged (the constant pool may have grown by unused entries).
func (w *classRewriter) rewriteMethod(p MethodPlan) error {
	m := &w.c.Methods[p.Index]
	attr, ok := w.c.FindAttribute(m.Attributes, "Code")
	if !ok {
		return fmt.Errorf("method has no code")
	}
	// Only a constructor needs its descriptor as a string; the name is
	// compared in place.
	name, err := w.c.Pool.Utf8Bytes(m.Name)
	if err != nil {
		return err
	}
	if _, err := w.c.Pool.Utf8Bytes(m.Descriptor); err != nil {
		return err
	}
	code, err := cf.DecodeCode(w.c.Pool, attr.Data)
	if err != nil {
		return err
	}
	isCtor := string(name) == "<init>" && !w.isObject
	var flow *ctorFlow
	if p.Trace && isCtor {
		desc, err := w.c.Pool.Utf8(m.Descriptor)
		if err != nil {
			return err
		}
		if flow, err = w.s.ctor.analyze(code, w.c.Pool, desc, m.Access&cf.AccStatic != 0); err != nil {
			return fmt.Errorf("%w: %v", errCtorFlow, err)
		}
	}

	var enter, exit, focus []cf.Insn
	if p.Trace {
		if enter, exit, err = w.entryExit(p.ID); err != nil {
			return err
		}
	}
	if p.Focus {
		if focus, err = w.focusCall(); err != nil {
			return err
		}
	}

	// out is built in the scratch buffer; ranges collects the runs of
	// instructions the catch-all covers as they are emitted.
	in := code.Insns
	out := w.s.out[:0]
	if need := len(in) + len(enter) + len(focus) + len(exit)*4 + 4; cap(out) < need {
		out = make([]cf.Insn, 0, need+need/4)
	}
	ranges := w.s.ranges[:0]
	open := -1 // start of the covered run being emitted
	cover := func(cov bool, at int) {
		switch {
		case cov && open < 0:
			open = at
		case !cov && open >= 0:
			ranges = append(ranges, [2]int{open, at})
			open = -1
		}
	}
	if (!isCtor || !p.Trace) && len(enter) > 0 {
		cover(false, len(out))
		out = append(out, enter...)
	}
	if len(focus) > 0 {
		cover(false, len(out))
		out = append(out, focus...)
	}
	for i := range in {
		ins := in[i]
		cov := p.Trace && (flow == nil || !flow.uninit[i])
		cover(cov, len(out))
		if p.Trace && cf.Opcode(ins.Op).IsReturn() {
			// Branches to the return now reach the exit code first.
			at := len(out)
			out = append(out, exit...)
			out[at].Mark, ins.Mark = ins.Mark, cf.NoLabel
		}
		out = append(out, ins)
		if flow != nil && flow.initCall[i] && len(enter) > 0 {
			cover(false, len(out))
			out = append(out, enter...)
		}
	}
	cover(false, len(out))
	w.s.ranges = ranges
	if p.Trace {
		if err := w.addCatchAll(code, &out, ranges, exit); err != nil {
			w.s.out = out[:0]
			return err
		}
	}
	w.s.out = out[:0]
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
// covered instructions, given as [start, end) ranges of *out.
func (w *classRewriter) addCatchAll(code *cf.Code, out *[]cf.Insn, ranges [][2]int, exit []cf.Insn) error {
	if len(ranges) == 0 {
		return nil
	}
	ins := *out
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
	// The table is rebuilt in scratch: code is dropped after encoding.
	handlers := append(w.s.handlers[:0], code.Handlers...)
	for _, r := range ranges {
		handlers = append(handlers, cf.Handler{Start: markAt(r[0]), End: markAt(r[1]), Handler: handler})
	}
	w.s.handlers = handlers[:0]
	code.Handlers = handlers
	at := len(ins)
	ins = append(append(ins, exit...), cf.Insn{Op: cf.ATHROW})
	ins[at].Mark = handler
	*out = ins

	if w.c.Major < 50 {
		return nil
	}
	if w.throwable == 0 {
		i, err := w.c.Pool.AddClass(throwableClass)
		if err != nil {
			return err
		}
		w.throwable = i
	}
	smt := code.StackMapTable()
	if smt == nil {
		if w.smtName == 0 {
			i, err := w.c.Pool.AddUtf8(stackMapTableName)
			if err != nil {
				return err
			}
			w.smtName = i
		}
		attrs := append(w.s.attrs[:0], code.Attributes...)
		attrs = append(attrs, cf.CodeAttribute{Kind: cf.AttrStackMapTable, Name: w.smtName})
		w.s.attrs = attrs[:0]
		code.Attributes = attrs
		smt = &code.Attributes[len(code.Attributes)-1]
	}
	w.s.stack[0] = cf.VType{Tag: cf.VObject, Class: w.throwable}
	frames := append(w.s.frames[:0], smt.Frames...)
	frames = append(frames, cf.Frame{
		Kind:  cf.FrameFull,
		At:    handler,
		Stack: w.s.stack[:],
	})
	w.s.frames = frames[:0]
	smt.Frames = frames
	return nil
}
