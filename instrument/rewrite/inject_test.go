package rewrite

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// handClass wraps one method of hand-written code in a class of the given
// version, for the rewriter's unit tests.
func handClass(t *testing.T, a *ctorAsm, major uint16, name, desc string, access uint16) *cf.Class {
	t.Helper()
	this, err := a.pool.AddClass("p/C")
	require.NoError(t, err)
	super, err := a.pool.AddClass("java/lang/Object")
	require.NoError(t, err)
	n, err := a.pool.AddUtf8(name)
	require.NoError(t, err)
	d, err := a.pool.AddUtf8(desc)
	require.NoError(t, err)
	codeName, err := a.pool.AddUtf8("Code")
	require.NoError(t, err)
	data, err := a.code.Encode()
	require.NoError(t, err)
	return &cf.Class{
		Major: major, Pool: a.pool, ThisClass: this, SuperClass: super,
		Methods: []cf.Member{{Access: access, Name: n, Descriptor: d, Attributes: []cf.Attribute{{Name: codeName, Data: data}}}},
	}
}

func rewrittenCode(t *testing.T, c *cf.Class) *cf.Code {
	t.Helper()
	attr, ok := c.FindAttribute(c.Methods[0].Attributes, "Code")
	require.True(t, ok)
	code, err := cf.DecodeCode(c.Pool, attr.Data)
	require.NoError(t, err)
	return code
}

// TestRewriteMaxStack: the exit pushes an id on top of a return value and
// the handler holds the exception under it, so max_stack grows by one
// and is at least two; a method already at 65,535 is left untouched.
func TestRewriteMaxStack(t *testing.T) {
	for _, tt := range []struct {
		maxStack uint16
		plan     MethodPlan
		want     uint16
		reason   string
	}{
		{0, MethodPlan{Trace: true, ID: 3}, 2, ""},
		{1, MethodPlan{Trace: true, ID: 3}, 2, ""},
		{2, MethodPlan{Trace: true, ID: 3}, 3, ""},
		{7, MethodPlan{Trace: true, ID: 3}, 8, ""},
		{0, MethodPlan{Focus: true}, 2, ""},
		{65534, MethodPlan{Trace: true, ID: 3}, 65535, ""},
		{65535, MethodPlan{Trace: true, ID: 3}, 0, ReasonStackOverflow},
	} {
		a := newCtorAsm(t, 2)
		a.code.MaxStack = tt.maxStack
		a.op("", cf.RETURN)
		c := handClass(t, a, 52, "onWindowFocusChanged", "(Z)V", 0)
		rt := DefaultRuntime()
		skipped, changed, err := RewriteClass(c, &rt, []MethodPlan{tt.plan})
		require.NoError(t, err)
		if tt.reason != "" {
			require.Len(t, skipped, 1)
			assert.Equal(t, tt.reason, skipped[0].Reason)
			assert.False(t, changed)
			continue
		}
		require.Empty(t, skipped, "max_stack %d", tt.maxStack)
		code := rewrittenCode(t, c)
		assert.Equal(t, tt.want, code.MaxStack, "max_stack %d, plan %+v", tt.maxStack, tt.plan)
		inj := FindInjected(code, c.Pool, rt)
		assert.Equal(t, tt.plan.Focus, inj.Focus, "the focus call")
		assert.Equal(t, tt.plan.Trace, len(inj.EnterIDs) == 1, "the entry")
	}
}

// TestRewriteFrames: from version 50 on, the catch-all handler gets a
// frame (Throwable on the stack); an older class file has no stack map
// table and gets none. The handler covers the body and comes last.
func TestRewriteFrames(t *testing.T) {
	for _, major := range []uint16{49, 50, 61} {
		a := newCtorAsm(t, 1)
		a.code.MaxStack = 1
		a.op("", cf.ICONST_0).op("", cf.POP).op("", cf.RETURN)
		c := handClass(t, a, major, "m", "()V", cf.AccStatic)
		rt := DefaultRuntime()
		skipped, changed, err := RewriteClass(c, &rt, []MethodPlan{{Trace: true, ID: 9}})
		require.NoError(t, err)
		require.Empty(t, skipped)
		require.True(t, changed)
		code := rewrittenCode(t, c)
		inj := FindInjected(code, c.Pool, rt)
		assert.Equal(t, []int{9}, inj.EnterIDs)
		assert.Equal(t, []int{9, 9}, inj.ExitIDs)
		require.Len(t, code.Handlers, 1)
		assert.Equal(t, []bool{true}, inj.Handlers)
		smt := code.StackMapTable()
		if major < 50 {
			assert.Nil(t, smt, "major %d", major)
			continue
		}
		require.NotNil(t, smt, "major %d", major)
		require.Len(t, smt.Frames, 1)
		f := smt.Frames[0]
		assert.Equal(t, code.Handlers[0].Handler, f.At)
		require.Len(t, f.Stack, 1)
		name, err := c.Pool.ClassName(f.Stack[0].Class)
		require.NoError(t, err)
		assert.Equal(t, "java/lang/Throwable", name)
	}
}

// TestRewriteEnterIDs: the id the entry and each exit push, in both modes,
// for ids in each push form.
func TestRewriteEnterIDs(t *testing.T) {
	for _, id := range []int{1, 5, 6, 127, 128, 32767, 32768, 1 << 20} {
		for _, mode := range []Mode{ModeBeat, ModeSystrace} {
			a := newCtorAsm(t, 1)
			a.code.MaxStack = 1
			a.op("", cf.ICONST_0).op("", cf.IRETURN)
			c := handClass(t, a, 61, "m", "()I", cf.AccStatic)
			rt := DefaultRuntime()
			rt.Mode = mode
			skipped, _, err := RewriteClass(c, &rt, []MethodPlan{{Trace: true, ID: id}})
			require.NoError(t, err)
			require.Empty(t, skipped)
			inj := FindInjected(rewrittenCode(t, c), c.Pool, rt)
			assert.Equal(t, []int{id}, inj.EnterIDs, "%s %d", mode, id)
			if mode == ModeBeat {
				assert.Equal(t, []int{id, id}, inj.ExitIDs, "%d", id)
			} else {
				assert.Empty(t, inj.ExitIDs)
				assert.Equal(t, []int{id}, inj.SectionIDs)
			}
		}
	}
}

// handlerRanges renders the catch-all's ranges as instruction indices of
// the rewritten code, "[start,end)".
func handlerRanges(t *testing.T, code *cf.Code, inj *Injected) []string {
	t.Helper()
	at := map[cf.Label]int{}
	for i, in := range code.Insns {
		if in.Mark != cf.NoLabel {
			at[in.Mark] = i
		}
	}
	var out []string
	for i, h := range code.Handlers {
		if inj.Handlers[i] {
			out = append(out, fmt.Sprintf("[%d,%d)", at[h.Start], at[h.End]))
		}
	}
	return out
}

// TestRewriteConstructorRanges: in a constructor with two paths to its
// super call, the entry follows each call and the catch-all covers only
// the code after them, in one range each.
func TestRewriteConstructorRanges(t *testing.T) {
	a := newCtorAsm(t, 2)
	a.code.MaxStack = 2
	init := a.ref(t, "<init>", "()V")
	a.op("", cf.ILOAD_1).jump("", cf.IFEQ, "other").
		op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, init).op("", cf.NOP).op("", cf.RETURN).
		op("other", cf.ALOAD_0).op("", cf.INVOKESPECIAL, init).op("", cf.RETURN)
	a.frame("other", uninitThis, vInt)
	c := handClass(t, a, 61, "<init>", "(I)V", 0)
	rt := DefaultRuntime()
	skipped, _, err := RewriteClass(c, &rt, []MethodPlan{{Trace: true, ID: 4}})
	require.NoError(t, err)
	require.Empty(t, skipped)
	code := rewrittenCode(t, c)
	inj := FindInjected(code, c.Pool, rt)
	// 0 iload_1, 1 ifeq, 2 aload_0, 3 invokespecial, 4-5 enter, 6 nop,
	// 7-8 exit, 9 return, 10 aload_0, 11 invokespecial, 12-13 enter,
	// 14-15 exit, 16 return, 17-18 exit, 19 athrow (the handler)
	assert.Equal(t, "....xx.xx...xxxx.xxx", marks(inj))
	assert.Equal(t, []string{"[6,10)", "[14,17)"}, handlerRanges(t, code, inj))
	assert.Equal(t, []int{4, 4}, inj.EnterIDs)
}

// TestAddFocusMethod: the added method calls the superclass's method, then
// the runtime's, and returns; a class without a superclass is refused.
func TestAddFocusMethod(t *testing.T) {
	a := newCtorAsm(t, 1)
	a.op("", cf.RETURN)
	c := handClass(t, a, 61, "m", "()V", 0)
	activity, err := c.Pool.AddClass("android/app/Activity")
	require.NoError(t, err)
	c.SuperClass = activity
	rt := DefaultRuntime()
	require.NoError(t, AddFocusMethod(c, &rt))
	require.Len(t, c.Methods, 2)
	m := &c.Methods[1]
	name, desc, err := c.MemberName(m)
	require.NoError(t, err)
	assert.Equal(t, []string{FocusMethod, FocusMethodDesc}, []string{name, desc})
	assert.Equal(t, uint16(cf.AccPublic), m.Access)
	attr, ok := c.FindAttribute(m.Attributes, "Code")
	require.True(t, ok)
	code, err := cf.DecodeCode(c.Pool, attr.Data)
	require.NoError(t, err)
	assert.Equal(t, []uint16{2, 2}, []uint16{code.MaxStack, code.MaxLocals})
	var ops []cf.Opcode
	for _, in := range code.Insns {
		ops = append(ops, in.Op)
	}
	assert.Equal(t, []cf.Opcode{cf.ALOAD_0, cf.ILOAD_1, cf.INVOKESPECIAL, cf.ALOAD_0, cf.ILOAD_1, cf.INVOKESTATIC, cf.RETURN}, ops)
	super, err := c.Pool.Ref(uint16(code.Insns[2].A))
	require.NoError(t, err)
	assert.Equal(t, "android/app/Activity."+FocusMethod+FocusMethodDesc, super.Class+"."+super.Name+super.Descriptor)
	assert.True(t, FindInjected(code, c.Pool, rt).Focus)

	c.SuperClass = 0
	assert.ErrorContains(t, AddFocusMethod(c, &rt), "class has no superclass")
	c.SuperClass = activity
	c.ThisClass = 0
	assert.Error(t, AddFocusMethod(c, &rt))
	c.ThisClass = 2
	c.Methods = make([]cf.Member, 0xFFFF)
	assert.ErrorContains(t, AddFocusMethod(c, &rt), "class already has 65535 methods")
	c.Methods = c.Methods[:0xFFFE]
	require.NoError(t, AddFocusMethod(c, &rt))
	assert.Len(t, c.Methods, 0xFFFF)
}

// TestRewritePlanOrder: plans in any order give the same class; a plan
// for a method the class does not have is an error.
func TestRewritePlanOrder(t *testing.T) {
	build := func(plans []MethodPlan) []byte {
		a := newCtorAsm(t, 1)
		a.op("", cf.RETURN)
		c := handClass(t, a, 61, "m", "()V", cf.AccStatic)
		c.Methods = append(c.Methods, c.Methods[0], c.Methods[0])
		rt := DefaultRuntime()
		_, _, err := RewriteClass(c, &rt, plans)
		require.NoError(t, err)
		data, err := c.Encode()
		require.NoError(t, err)
		return data
	}
	sorted := build([]MethodPlan{{Index: 0, ID: 5, Trace: true}, {Index: 1, ID: 200, Trace: true}, {Index: 2, ID: 70000, Trace: true}})
	assert.Equal(t, sorted, build([]MethodPlan{{Index: 2, ID: 70000, Trace: true}, {Index: 0, ID: 5, Trace: true}, {Index: 1, ID: 200, Trace: true}}))
	assert.Equal(t, sorted, build([]MethodPlan{{Index: 1, ID: 200, Trace: true}, {Index: 2, ID: 70000, Trace: true}, {Index: 0, ID: 5, Trace: true}}))
	assert.Equal(t, sorted, build([]MethodPlan{{Index: 2, ID: 70000, Trace: true}, {Index: 1, ID: 200, Trace: true}, {Index: 0, ID: 5, Trace: true}}))

	a := newCtorAsm(t, 1)
	a.op("", cf.RETURN)
	c := handClass(t, a, 61, "m", "()V", cf.AccStatic)
	rt := DefaultRuntime()
	for _, index := range []int{1, -1} {
		_, _, err := RewriteClass(c, &rt, []MethodPlan{{Index: index, Trace: true}})
		assert.ErrorContains(t, err, fmt.Sprintf("plan for method %d of 1", index))
	}
}

func TestModeNames(t *testing.T) {
	for _, m := range []Mode{ModeBeat, ModeSystrace} {
		back, err := ParseMode(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, back)
	}
	assert.Equal(t, "beat", ModeBeat.String())
	assert.Equal(t, "systrace", ModeSystrace.String())
	_, err := ParseMode("x")
	assert.Error(t, err)
}
