package rewrite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// injAsm adds the runtime's references to a ctorAsm, for code written by
// hand to test the recogniser.
type injAsm struct {
	*ctorAsm
	t  *testing.T
	rt Runtime
}

func (a injAsm) call(class, name, desc string) int32 {
	i, err := a.pool.AddMethodref(class, name, desc)
	require.NoError(a.t, err)
	return int32(i)
}

func (a injAsm) enter() int32 { return a.call(a.rt.BeatClass, a.rt.Enter, "(I)V") }
func (a injAsm) exit() int32  { return a.call(a.rt.BeatClass, a.rt.Exit, "(I)V") }
func (a injAsm) begin() int32 {
	return a.call(a.rt.TraceClass, a.rt.Begin, "(Ljava/lang/String;)V")
}
func (a injAsm) end() int32 { return a.call(a.rt.TraceClass, a.rt.End, "()V") }

func (a injAsm) integer(v int32) int32 {
	i, err := a.pool.AddInteger(v)
	require.NoError(a.t, err)
	return int32(i)
}

func (a injAsm) str(s string) int32 {
	i, err := a.pool.AddString(s)
	require.NoError(a.t, err)
	return int32(i)
}

// marks renders which instructions FindInjected claims: 'x' injected, '.' not.
func marks(m *Injected) string {
	b := make([]byte, len(m.Insns))
	for i, in := range m.Insns {
		b[i] = '.'
		if in {
			b[i] = 'x'
		}
	}
	return string(b)
}

// TestFindInjected runs the recogniser over code written by hand: every
// form an id is pushed in, the look-alikes it must not claim, and the
// catch-all handler's conditions.
func TestFindInjected(t *testing.T) {
	type want struct {
		marks          string
		enter, exit    []int
		beat, sections []int
		focus          bool
		handlers       []bool
		comments       map[int]string
	}
	tests := []struct {
		name  string
		build func(a injAsm)
		want  want
	}{{
		// A negative id is an id (the recogniser once took it for a
		// systrace exit).
		name: "ids in every push form",
		build: func(a injAsm) {
			a.op("", cf.ICONST_M1).op("", cf.INVOKESTATIC, a.enter()).
				op("", cf.ICONST_5).op("", cf.INVOKESTATIC, a.enter()).
				op("", cf.BIPUSH, -100).op("", cf.INVOKESTATIC, a.enter()).
				op("", cf.SIPUSH, 30000).op("", cf.INVOKESTATIC, a.exit()).
				op("", cf.LDC, a.integer(70000)).op("", cf.INVOKESTATIC, a.exit()).
				op("", cf.LDC_W, a.integer(-70000)).op("", cf.INVOKESTATIC, a.exit()).
				op("", cf.RETURN)
		},
		want: want{
			marks: "xxxxxxxxxxxx.", enter: []int{-1, 5, -100}, exit: []int{30000, 70000, -70000},
			beat:     []int{-1, 5, -100, 30000, 70000, -70000},
			comments: map[int]string{0: "tracebeat: enter id=-1", 2: "tracebeat: enter id=5", 4: "tracebeat: enter id=-100", 6: "tracebeat: exit id=30000", 8: "tracebeat: exit id=70000", 10: "tracebeat: exit id=-70000"},
		},
	}, {
		name: "calls with another argument are the app's",
		build: func(a injAsm) {
			a.op("", cf.ILOAD_1).op("", cf.INVOKESTATIC, a.enter()).
				op("", cf.LDC, a.str("7")).op("", cf.INVOKESTATIC, a.enter()).
				op("", cf.ICONST_0).op("", cf.INVOKESTATIC, a.call(a.rt.BeatClass, a.rt.Enter, "(J)V")).
				op("", cf.ICONST_0).op("", cf.INVOKESTATIC, a.call("p/Other", a.rt.Enter, "(I)V")).
				op("", cf.ICONST_0).op("", cf.INVOKEVIRTUAL, a.enter()).
				op("", cf.ICONST_0).op("", cf.INVOKESTATIC, a.call(a.rt.BeatClass, "other", "(I)V")).
				op("", cf.ICONST_0).op("", cf.NOP).
				op("", cf.ICONST_0)
		},
		want: want{marks: "...............", comments: map[int]string{}},
	}, {
		name: "sections",
		build: func(a injAsm) {
			a.op("", cf.LDC, a.str("12")).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.LDC_W, a.str("0")).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.INVOKESTATIC, a.end()).
				op("", cf.LDC, a.str("012")).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.LDC, a.str("-1")).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.LDC, a.str("+1")).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.LDC, a.str("")).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.LDC, a.str("x")).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.LDC, a.integer(3)).op("", cf.INVOKESTATIC, a.begin()).
				op("", cf.RETURN)
		},
		want: want{
			marks: "xxxxx.............", enter: []int{12, 0}, sections: []int{12, 0},
			comments: map[int]string{0: "tracebeat: enter id=12 (beginSection)", 2: "tracebeat: enter id=0 (beginSection)", 4: "tracebeat: exit (endSection)"},
		},
	}, {
		name: "focus at the end of the code",
		build: func(a injAsm) {
			a.op("", cf.ALOAD_0).op("", cf.ILOAD_1).op("", cf.INVOKESTATIC, a.call(a.rt.BeatClass, a.rt.Focus, focusCallDesc))
		},
		want: want{marks: "xxx", focus: true, comments: map[int]string{0: "tracebeat: focus at(this, hasFocus)"}},
	}, {
		name: "focus look-alikes",
		build: func(a injAsm) {
			focus := a.call(a.rt.BeatClass, a.rt.Focus, focusCallDesc)
			a.op("", cf.ALOAD_0).op("", opICONST1).op("", cf.INVOKESTATIC, focus).
				op("", opALOAD2).op("", cf.ILOAD_1).op("", cf.INVOKESTATIC, focus).
				op("", cf.ALOAD_0).op("", cf.ILOAD_1).op("", cf.ALOAD_0)
		},
		want: want{marks: ".........", comments: map[int]string{}},
	}, {
		name: "a catch-all handler",
		build: func(a injAsm) {
			a.op("s", opICONST2).op("", cf.INVOKESTATIC, a.enter()).
				op("", cf.NOP).op("m", opICONST2).op("", cf.INVOKESTATIC, a.exit()).op("e", cf.RETURN).
				op("h", opICONST2).op("", cf.INVOKESTATIC, a.exit()).op("", cf.ATHROW)
			a.code.Handlers = []cf.Handler{
				{Start: a.label("s"), End: a.label("e"), Handler: a.label("h"), CatchType: 1},
				{Start: a.label("s"), End: a.label("m"), Handler: a.label("e")},
				{Start: a.label("s"), End: a.label("m"), Handler: a.label("h")},
				{Start: a.label("m"), End: a.label("e"), Handler: a.label("h")},
			}
		},
		want: want{
			marks: "xx.xx.xxx", enter: []int{2}, exit: []int{2, 2}, beat: []int{2, 2, 2},
			handlers: []bool{false, false, true, true},
			comments: map[int]string{0: "tracebeat: enter id=2", 3: "tracebeat: exit id=2", 6: "tracebeat: catch-all handler: exit id=2, rethrow"},
		},
	}, {
		name: "a systrace catch-all handler",
		build: func(a injAsm) {
			a.op("s", cf.NOP).op("e", cf.RETURN).op("h", cf.INVOKESTATIC, a.end()).op("", cf.ATHROW)
			a.handler("s", "e", "h")
		},
		want: want{
			marks: "..xx", handlers: []bool{true},
			comments: map[int]string{2: "tracebeat: catch-all handler: endSection, rethrow"},
		},
	}, {
		// The whole method is the handler: it starts at instruction 0.
		name: "a catch-all at the first instruction",
		build: func(a injAsm) {
			a.op("h", cf.INVOKESTATIC, a.end()).op("", cf.ATHROW)
			a.handler("h", "h", "h")
		},
		want: want{
			marks: "xx", handlers: []bool{true},
			comments: map[int]string{0: "tracebeat: catch-all handler: endSection, rethrow"},
		},
	}, {
		name: "a last entry with a catch type is no catch-all",
		build: func(a injAsm) {
			a.op("s", cf.NOP).op("e", cf.RETURN).op("h", cf.INVOKESTATIC, a.end()).op("", cf.ATHROW)
			a.code.Handlers = []cf.Handler{{Start: a.label("s"), End: a.label("e"), Handler: a.label("h"), CatchType: 3}}
		},
		want: want{marks: "..x.", handlers: []bool{false}, comments: map[int]string{2: "tracebeat: exit (endSection)"}},
	}, {
		name: "a handler that does not rethrow",
		build: func(a injAsm) {
			a.op("s", cf.NOP).op("e", cf.RETURN).op("h", cf.INVOKESTATIC, a.end()).op("", cf.RETURN)
			a.handler("s", "e", "h")
		},
		want: want{marks: "..x.", handlers: []bool{false}, comments: map[int]string{2: "tracebeat: exit (endSection)"}},
	}, {
		name: "a handler that is not at the end",
		build: func(a injAsm) {
			a.op("s", cf.NOP).op("e", cf.NOP).op("h", cf.INVOKESTATIC, a.end()).op("", cf.ATHROW).op("", cf.ATHROW)
			a.handler("s", "e", "h")
		},
		want: want{marks: "..x..", handlers: []bool{false}, comments: map[int]string{2: "tracebeat: exit (endSection)"}},
	}, {
		name: "a handler without an exit",
		build: func(a injAsm) {
			a.op("s", cf.NOP).op("e", cf.RETURN).op("h", cf.NOP).op("", cf.ATHROW)
			a.handler("s", "e", "h")
		},
		want: want{marks: "....", handlers: []bool{false}, comments: map[int]string{}},
	}, {
		name: "a handler at no instruction",
		build: func(a injAsm) {
			a.op("s", cf.NOP).op("e", cf.INVOKESTATIC, a.end()).op("", cf.ATHROW)
			a.handler("s", "e", "nowhere")
		},
		want: want{marks: ".x.", handlers: []bool{false}, comments: map[int]string{1: "tracebeat: exit (endSection)"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := injAsm{ctorAsm: newCtorAsm(t, 2), t: t, rt: DefaultRuntime()}
			tt.build(a)
			m := FindInjected(&a.code, a.pool, Runtime{}) // the zero Runtime is the default
			assert.Equal(t, tt.want.marks, marks(m))
			assert.Equal(t, tt.want.enter, m.EnterIDs, "enter ids")
			assert.Equal(t, tt.want.exit, m.ExitIDs, "exit ids")
			assert.Equal(t, tt.want.beat, m.BeatIDs, "beat ids")
			assert.Equal(t, tt.want.sections, m.SectionIDs, "section ids")
			assert.Equal(t, tt.want.focus, m.Focus, "focus")
			assert.Equal(t, tt.want.comments, m.Comments)
			if tt.want.handlers == nil {
				tt.want.handlers = []bool{}
			}
			assert.Equal(t, tt.want.handlers, m.Handlers, "handlers")
			assert.Equal(t, strings.Contains(tt.want.marks, "x"), m.Any(), "Any")
		})
	}
}

// TestPushInt pins the shortest push of an id at each boundary of the
// four forms.
func TestPushInt(t *testing.T) {
	tests := []struct {
		v  int
		op cf.Opcode
	}{
		{-32769, cf.LDC}, {-32768, cf.SIPUSH}, {-129, cf.SIPUSH}, {-128, cf.BIPUSH},
		{-2, cf.BIPUSH}, {-1, cf.ICONST_M1}, {0, cf.ICONST_0}, {5, cf.ICONST_5},
		{6, cf.BIPUSH}, {127, cf.BIPUSH}, {128, cf.SIPUSH}, {32767, cf.SIPUSH}, {32768, cf.LDC},
	}
	for _, tt := range tests {
		a := newCtorAsm(t, 1)
		w := classRewriter{c: &cf.Class{Pool: a.pool}}
		in, err := w.pushInt(tt.v)
		require.NoError(t, err)
		assert.Equal(t, tt.op, in.Op, "push %d", tt.v)
		got, ok := pushedInt(in, a.pool)
		assert.True(t, ok)
		assert.Equal(t, tt.v, got, "push %d", tt.v)
	}
}
