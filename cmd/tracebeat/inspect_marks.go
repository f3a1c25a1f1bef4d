package main

import (
	"strconv"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// injectedRuntime names the calls inspect recognises as tracebeat's: the
// beat runtime (configurable, as for instrument) and android.os.Trace.
type injectedRuntime struct {
	beatClass, enter, exit, focus string
	traceClass, begin, end        string
}

func defaultInjectedRuntime(beatClass string) injectedRuntime {
	return injectedRuntime{
		beatClass: beatClass, enter: "i", exit: "o", focus: "at",
		traceClass: "android/os/Trace", begin: "beginSection", end: "endSection",
	}
}

// codeMarks says which instructions and exception-table entries of one
// method tracebeat injected, with a comment for the first instruction of
// each injected sequence.
type codeMarks struct {
	injected []bool         // per instruction
	comment  map[int]string // instruction index -> "tracebeat: ..."
	handler  []bool         // per exception-table entry: the catch-all
	enterIDs []int          // ids of the entry calls, in code order
	exitIDs  []int          // ids of the exit calls (beat mode only)
}

// any reports whether anything in the method was injected.
func (m *codeMarks) any() bool {
	for _, in := range m.injected {
		if in {
			return true
		}
	}
	return false
}

// findMarks recognises the sequences the instrumenter writes:
//
//	enter:   <push id>; invokestatic Beat.i(I)V   or  ldc "<id>"; invokestatic Trace.beginSection(String)V
//	exit:    <push id>; invokestatic Beat.o(I)V   or  invokestatic Trace.endSection()V
//	focus:   aload_0; iload_1; invokestatic Beat.at(Activity, Z)V
//	handler: the last exception-table entries, catch type 0 (any), all
//	         with one handler whose code is <exit>; athrow at the very end.
func findMarks(code *cf.Code, pool *cf.ConstantPool, rt injectedRuntime) *codeMarks {
	n := len(code.Insns)
	m := &codeMarks{injected: make([]bool, n), comment: map[int]string{}, handler: make([]bool, len(code.Handlers))}
	call := func(k int, class, name, desc string) bool {
		if k >= n || code.Insns[k].Op != cf.INVOKESTATIC {
			return false
		}
		r, err := pool.Ref(uint16(code.Insns[k].A))
		return err == nil && r.Class == class && r.Name == name && r.Descriptor == desc
	}
	mark := func(from, count int, comment string) {
		for k := from; k < from+count; k++ {
			m.injected[k] = true
		}
		m.comment[from] = comment
	}
	// exitAt returns the length of an exit sequence starting at k (0: none).
	exitAt := func(k int) (length, id int) {
		if id, ok := pushedInt(code.Insns[k], pool); ok && call(k+1, rt.beatClass, rt.exit, "(I)V") {
			return 2, id
		}
		if call(k, rt.traceClass, rt.end, "()V") {
			return 1, -1
		}
		return 0, 0
	}
	for k := 0; k < n; k++ {
		in := code.Insns[k]
		if id, ok := pushedInt(in, pool); ok && call(k+1, rt.beatClass, rt.enter, "(I)V") {
			mark(k, 2, "tracebeat: enter id="+strconv.Itoa(id))
			m.enterIDs = append(m.enterIDs, id)
			k++
			continue
		}
		if id, ok := sectionName(in, pool); ok && call(k+1, rt.traceClass, rt.begin, "(Ljava/lang/String;)V") {
			mark(k, 2, "tracebeat: enter id="+strconv.Itoa(id)+" (beginSection)")
			m.enterIDs = append(m.enterIDs, id)
			k++
			continue
		}
		if l, id := exitAt(k); l > 0 {
			if id >= 0 {
				mark(k, l, "tracebeat: exit id="+strconv.Itoa(id))
				m.exitIDs = append(m.exitIDs, id)
			} else {
				mark(k, l, "tracebeat: exit (endSection)")
			}
			k += l - 1
			continue
		}
		if in.Op == cf.ALOAD_0 && k+2 < n && code.Insns[k+1].Op == iload1 &&
			call(k+2, rt.beatClass, rt.focus, "(Landroid/app/Activity;Z)V") {
			mark(k, 3, "tracebeat: focus at(this, hasFocus)")
			k += 2
		}
	}
	m.findHandler(code, exitAt)
	return m
}

const iload1 = 0x1b

// findHandler marks the catch-all: trailing exception-table entries that
// catch everything and share one handler whose code is an exit sequence
// and athrow, ending the method.
func (m *codeMarks) findHandler(code *cf.Code, exitAt func(int) (int, int)) {
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
	l, id := exitAt(at)
	last := len(code.Insns) - 1
	if l == 0 || at+l != last || code.Insns[last].Op != cf.ATHROW {
		return
	}
	for k := at; k <= last; k++ {
		m.injected[k] = true
	}
	if id >= 0 {
		m.comment[at] = "tracebeat: catch-all handler: exit id=" + strconv.Itoa(id) + ", rethrow"
	} else {
		m.comment[at] = "tracebeat: catch-all handler: endSection, rethrow"
	}
	for i := len(hs) - 1; i >= 0 && hs[i].CatchType == 0 && hs[i].Handler == target; i-- {
		m.handler[i] = true
	}
}

// pushedInt returns the int constant an instruction pushes, if it is one
// of the forms the instrumenter uses for ids.
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

// sectionName returns the id of `ldc "<id>"`, the systrace entry push.
func sectionName(in cf.Insn, pool *cf.ConstantPool) (int, bool) {
	if in.Op != cf.LDC && in.Op != cf.LDC_W {
		return 0, false
	}
	s, err := pool.StringValue(uint16(in.A))
	if err != nil {
		return 0, false
	}
	id, err := strconv.Atoi(s)
	return id, err == nil && strconv.Itoa(id) == s
}
