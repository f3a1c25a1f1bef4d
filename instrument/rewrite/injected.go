package rewrite

import (
	"strconv"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// Injected says which instructions and exception-table entries of one
// method tracebeat injected: the one recogniser of the pattern the
// rewriter writes, used by inspect, by check --jar (ScanInstrumented) and
// by the scan that leaves code instrumented before alone.
type Injected struct {
	Insns    []bool         // per instruction
	Comments map[int]string // instruction index -> "tracebeat: ..." at the start of each sequence
	Handlers []bool         // per exception-table entry: the catch-all
	EnterIDs []int          // ids of the entry calls, in code order
	ExitIDs  []int          // ids of the exit calls (beat mode only)
	Focus    bool           // the focus call is there
	// BeatIDs are the ids of the beat runtime's entry and exit calls, and
	// SectionIDs those of the systrace entries, in code order.
	BeatIDs, SectionIDs []int
}

// Any reports whether anything in the method was injected.
func (m *Injected) Any() bool {
	for _, in := range m.Insns {
		if in {
			return true
		}
	}
	return false
}

// FindInjected recognises, in either mode, the sequences the rewriter
// writes for rt:
//
//	enter:   <push id>; invokestatic Beat.i(I)V   or  ldc "<id>"; invokestatic Trace.beginSection(String)V
//	exit:    <push id>; invokestatic Beat.o(I)V   or  invokestatic Trace.endSection()V
//	focus:   aload_0; iload_1; invokestatic Beat.at(Activity, Z)V
//	handler: the last exception-table entries, catch type 0 (any), all
//	         with one handler whose code is <exit>; athrow at the very end.
//
// An id is an int pushed by iconst, bipush, sipush or ldc, or a section
// name in strconv.Itoa's form; a runtime call with any other argument (an
// app calling the runtime itself) is not injected code.
func FindInjected(code *cf.Code, pool *cf.ConstantPool, rt Runtime) *Injected {
	rt = rt.OrDefault()
	n := len(code.Insns)
	m := &Injected{Insns: make([]bool, n), Comments: map[int]string{}, Handlers: make([]bool, len(code.Handlers))}
	call := func(k int, class, name, desc string) bool {
		if k >= n || code.Insns[k].Op != cf.INVOKESTATIC {
			return false
		}
		r, err := pool.Ref(uint16(code.Insns[k].A))
		return err == nil && r.Class == class && r.Name == name && r.Descriptor == desc
	}
	mark := func(from, count int, comment string) {
		for k := from; k < from+count; k++ {
			m.Insns[k] = true
		}
		m.Comments[from] = comment
	}
	// exitAt returns the length of an exit sequence starting at k (0:
	// none) and, for the beat runtime's, its id (an id may be negative).
	exitAt := func(k int) (length, id int, beat bool) {
		if id, ok := pushedInt(code.Insns[k], pool); ok && call(k+1, rt.BeatClass, rt.Exit, "(I)V") {
			return 2, id, true
		}
		if call(k, rt.TraceClass, rt.End, "()V") {
			return 1, 0, false
		}
		return 0, 0, false
	}
	for k := 0; k < n; k++ {
		in := code.Insns[k]
		if id, ok := pushedInt(in, pool); ok && call(k+1, rt.BeatClass, rt.Enter, "(I)V") {
			mark(k, 2, "tracebeat: enter id="+strconv.Itoa(id))
			m.EnterIDs, m.BeatIDs = append(m.EnterIDs, id), append(m.BeatIDs, id)
			k++
			continue
		}
		if id, ok := sectionName(in, pool); ok && call(k+1, rt.TraceClass, rt.Begin, "(Ljava/lang/String;)V") {
			mark(k, 2, "tracebeat: enter id="+strconv.Itoa(id)+" (beginSection)")
			m.EnterIDs, m.SectionIDs = append(m.EnterIDs, id), append(m.SectionIDs, id)
			k++
			continue
		}
		if l, id, beat := exitAt(k); l > 0 {
			if beat {
				mark(k, l, "tracebeat: exit id="+strconv.Itoa(id))
				m.ExitIDs, m.BeatIDs = append(m.ExitIDs, id), append(m.BeatIDs, id)
			} else {
				mark(k, l, "tracebeat: exit (endSection)")
			}
			k += l - 1
			continue
		}
		if in.Op == cf.ALOAD_0 && k+2 < n && code.Insns[k+1].Op == cf.ILOAD_1 &&
			call(k+2, rt.BeatClass, rt.Focus, focusCallDesc) {
			mark(k, 3, "tracebeat: focus at(this, hasFocus)")
			m.Focus = true
			k += 2
		}
	}
	m.findHandler(code, exitAt)
	return m
}

// findHandler marks the catch-all: trailing exception-table entries that
// catch everything and share one handler whose code is an exit sequence
// and athrow, ending the method.
func (m *Injected) findHandler(code *cf.Code, exitAt func(int) (int, int, bool)) {
	hs := code.Handlers
	if len(hs) == 0 || hs[len(hs)-1].CatchType != 0 {
		return
	}
	target := hs[len(hs)-1].Handler
	at := -1
	for k, in := range code.Insns {
		if in.Mark == target {
			at = k
			break
		}
	}
	if at < 0 {
		return
	}
	l, id, beat := exitAt(at)
	last := len(code.Insns) - 1
	if l == 0 || at+l != last || code.Insns[last].Op != cf.ATHROW {
		return
	}
	for k := at; k <= last; k++ {
		m.Insns[k] = true
	}
	if beat {
		m.Comments[at] = "tracebeat: catch-all handler: exit id=" + strconv.Itoa(id) + ", rethrow"
	} else {
		m.Comments[at] = "tracebeat: catch-all handler: endSection, rethrow"
	}
	for i := len(hs) - 1; i >= 0 && hs[i].CatchType == 0 && hs[i].Handler == target; i-- {
		m.Handlers[i] = true
	}
}

// pushedInt returns the int constant an instruction pushes, if it is one
// of the forms the rewriter uses for ids.
func pushedInt(in cf.Insn, pool *cf.ConstantPool) (int, bool) {
	switch {
	case in.Op >= cf.ICONST_M1 && in.Op <= cf.ICONST_5:
		return int(in.Op) - cf.ICONST_0, true
	case in.Op == cf.BIPUSH || in.Op == cf.SIPUSH:
		return int(in.A), true
	case in.Op == cf.LDC || in.Op == cf.LDC_W:
		if pool.Tag(uint16(in.A)) == cf.TagInteger {
			v, err := pool.Integer(uint16(in.A))
			return int(v), err == nil
		}
	}
	return 0, false
}

// sectionName returns the id of `ldc "<id>"`, the systrace entry push:
// decimal digits in strconv.Itoa's form (no sign, no leading zero).
func sectionName(in cf.Insn, pool *cf.ConstantPool) (int, bool) {
	if (in.Op != cf.LDC && in.Op != cf.LDC_W) || pool.Tag(uint16(in.A)) != cf.TagString {
		return 0, false
	}
	s, err := pool.StringValue(uint16(in.A))
	if err != nil || s == "" || s[0] == '-' || s[0] == '+' {
		return 0, false
	}
	id, err := strconv.Atoi(s)
	return id, err == nil && strconv.Itoa(id) == s
}
