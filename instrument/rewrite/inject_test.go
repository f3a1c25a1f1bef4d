package rewrite

import (
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
		Major: major, Pool: &a.pool, ThisClass: this, SuperClass: super,
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
		assert.Equal(t, tt.want, rewrittenCode(t, c).MaxStack, "max_stack %d, plan %+v", tt.maxStack, tt.plan)
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
