package rewrite

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// TestRewriteInAFullPool: a class whose constant pool has room for none,
// some or all of the entries a rewrite adds (the id, the runtime's
// methods, the focus call, Throwable and StackMapTable) keeps the method
// as it was, refused as constant-pool-full, until the room is there; then
// the method starts with the entry call. Each mode, each number of free
// entries from none to enough.
func TestRewriteInAFullPool(t *testing.T) {
	for _, mode := range []Mode{ModeBeat, ModeSystrace} {
		rewrote := false
		for free := 0; free <= 24 && !rewrote; free++ {
			t.Run(fmt.Sprintf("%s/%d free", mode, free), func(t *testing.T) {
				a := newCtorAsm(t, 2)
				a.code.MaxStack = 1
				a.op("", cf.ICONST_0).op("", cf.POP).op("", cf.RETURN)
				c := handClass(t, a, 52, "onWindowFocusChanged", "(Z)V", 0)
				// Integers are found through a map: 65,000 Utf8s would be
				// searched one by one, each time.
				for n := int32(0); c.Pool.Count() < 65535-free; n++ {
					_, err := c.Pool.AddInteger(1_000_000 + n)
					require.NoError(t, err)
				}
				before := append([]byte(nil), c.Methods[0].Attributes[0].Data...)
				rt := DefaultRuntime()
				rt.Mode = mode
				skipped, changed, err := RewriteClass(c, &rt, []MethodPlan{{Index: 0, Trace: true, ID: 100000, Focus: true}})
				require.NoError(t, err)
				if len(skipped) > 0 {
					require.Len(t, skipped, 1)
					assert.Equal(t, ReasonPoolFull, skipped[0].Reason)
					assert.False(t, changed)
					assert.Equal(t, before, c.Methods[0].Attributes[0].Data, "the method as it was")
					return
				}
				rewrote = true
				assert.True(t, changed)
				code := rewrittenCode(t, c)
				inj := FindInjected(code, c.Pool, rt)
				assert.True(t, inj.Focus)
				if mode == ModeBeat {
					assert.Equal(t, []int{100000}, inj.EnterIDs)
					assert.Contains(t, []cf.Opcode{cf.LDC, cf.LDC_W}, code.Insns[0].Op, "an id past a short pushed from the pool")
				} else {
					assert.Equal(t, []int{100000}, inj.SectionIDs)
					assert.Contains(t, []cf.Opcode{cf.LDC, cf.LDC_W}, code.Insns[0].Op)
				}
				assert.Equal(t, cf.Opcode(cf.INVOKESTATIC), code.Insns[1].Op)
				assert.Equal(t, cf.Opcode(cf.ALOAD_0), code.Insns[2].Op, "the focus call right after the entry")
				assert.Equal(t, cf.Opcode(cf.ICONST_0), code.Insns[5].Op, "then the method's own code")
				t.Logf("%s: rewritten with %d free entries", mode, free)
			})
		}
		assert.True(t, rewrote, "%s: never rewritten", mode)
	}
}

// TestRewriteRefusesBadMethods: a plan for a method without code, a
// method whose name or descriptor is no Utf8, code that does not decode,
// a class whose this_class is no class: errors, the class as it was.
func TestRewriteRefusesBadMethods(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(c *cf.Class)
		err   string
	}{
		{"no code", func(c *cf.Class) { c.Methods[0].Attributes = nil }, "method has no code"},
		{"a name that is no Utf8", func(c *cf.Class) { c.Methods[0].Name = c.ThisClass }, ""},
		{"a descriptor that is no Utf8", func(c *cf.Class) { c.Methods[0].Descriptor = c.ThisClass }, ""},
		{"code that does not decode", func(c *cf.Class) { c.Methods[0].Attributes[0].Data[8] = 0xff }, "opcode"},
		{"this_class no class", func(c *cf.Class) { c.ThisClass = c.Methods[0].Name }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newCtorAsm(t, 2)
			a.op("", cf.RETURN)
			c := handClass(t, a, 52, "run", "()V", 0)
			tc.spoil(c)
			rt := DefaultRuntime()
			skipped, changed, err := RewriteClass(c, &rt, []MethodPlan{{Index: 0, Trace: true, ID: 1}})
			assert.False(t, changed)
			if err == nil {
				require.Len(t, skipped, 1, "an error or a method skipped")
				err = skipped[0].Err
			}
			assert.ErrorContains(t, err, tc.err)
		})
	}
}

// TestRewriteConstructorFallingOff: a constructor whose flow cannot be
// followed (its code falls off its end) is refused as constructor-flow.
func TestRewriteConstructorFallingOff(t *testing.T) {
	a := newCtorAsm(t, 1)
	a.code.MaxStack = 1
	a.op("", cf.ICONST_0).op("", cf.POP)
	c := handClass(t, a, 52, "<init>", "()V", 0)
	rt := DefaultRuntime()
	skipped, changed, err := RewriteClass(c, &rt, []MethodPlan{{Index: 0, Trace: true, ID: 1}})
	require.NoError(t, err)
	require.Len(t, skipped, 1)
	assert.Equal(t, ReasonCtorFlow, skipped[0].Reason)
	assert.False(t, changed)
}

// TestAddFocusMethodInAFullPool: with too little room for the calls and
// names it adds, AddFocusMethod refuses and adds no method; with enough,
// it adds one. A superclass that is no class is refused.
func TestAddFocusMethodInAFullPool(t *testing.T) {
	added := false
	for free := 0; free <= 16 && !added; free++ {
		a := newCtorAsm(t, 1)
		a.op("", cf.RETURN)
		c := handClass(t, a, 61, "m", "()V", 0)
		activity, err := c.Pool.AddClass("android/app/Activity")
		require.NoError(t, err)
		c.SuperClass = activity
		for n := int32(0); c.Pool.Count() < 65535-free; n++ {
			_, err := c.Pool.AddInteger(1_000_000 + n)
			require.NoError(t, err)
		}
		rt := DefaultRuntime()
		err = AddFocusMethod(c, &rt)
		if err != nil {
			assert.ErrorIs(t, err, cf.ErrPoolFull, "%d free", free)
			assert.Len(t, c.Methods, 1, "%d free: no method added", free)
			continue
		}
		added = true
		require.Len(t, c.Methods, 2)
		name, desc, err := c.MemberName(&c.Methods[1])
		require.NoError(t, err)
		assert.Equal(t, FocusMethod+FocusMethodDesc, name+desc)
	}
	assert.True(t, added)

	a := newCtorAsm(t, 1)
	a.op("", cf.RETURN)
	c := handClass(t, a, 61, "m", "()V", 0)
	c.SuperClass = c.Methods[0].Name // a Utf8, no class
	rt := DefaultRuntime()
	assert.Error(t, AddFocusMethod(c, &rt))
	assert.Len(t, c.Methods, 1)
}

// TestRewriteNothingPlanned: a plan that neither traces nor adds the focus
// call leaves the method's bytes as they were.
func TestRewriteNothingPlanned(t *testing.T) {
	a := newCtorAsm(t, 1)
	a.op("", cf.RETURN)
	c := handClass(t, a, 52, "run", "()V", 0)
	before := append([]byte(nil), c.Methods[0].Attributes[0].Data...)
	rt := DefaultRuntime()
	skipped, changed, err := RewriteClass(c, &rt, []MethodPlan{{Index: 0}})
	require.NoError(t, err)
	assert.Empty(t, skipped)
	assert.False(t, changed)
	assert.Equal(t, before, c.Methods[0].Attributes[0].Data)
}

// TestRuntimeDefaults: a runtime that names its beat class is kept; a
// zero one is Matrix's in its mode; an unknown mode is refused.
func TestRuntimeDefaults(t *testing.T) {
	own := Runtime{Mode: ModeSystrace, BeatClass: "x/Beat", Enter: "in", Exit: "out", Focus: "f", TraceClass: "x/T", Begin: "b", End: "e"}
	assert.Equal(t, own, own.OrDefault())
	zero := Runtime{Mode: ModeSystrace}.OrDefault()
	want := DefaultRuntime()
	want.Mode = ModeSystrace
	assert.Equal(t, want, zero)
	m, err := ParseMode("trace")
	assert.ErrorContains(t, err, `unknown mode "trace"`)
	assert.Zero(t, m)
	for s, want := range map[string]Mode{"": ModeBeat, "beat": ModeBeat, "systrace": ModeSystrace} {
		m, err := ParseMode(s)
		require.NoError(t, err)
		assert.Equal(t, want, m)
	}
}

// TestFindInjectedAfterTheFocusCall: an exit right after the focus call
// (a method that only returns) is found.
func TestFindInjectedAfterTheFocusCall(t *testing.T) {
	a := newCtorAsm(t, 2)
	a.op("", cf.RETURN)
	c := handClass(t, a, 52, "onWindowFocusChanged", "(Z)V", 0)
	rt := DefaultRuntime()
	_, _, err := RewriteClass(c, &rt, []MethodPlan{{Index: 0, Trace: true, Focus: true, ID: 3}})
	require.NoError(t, err)
	inj := FindInjected(rewrittenCode(t, c), c.Pool, rt)
	assert.True(t, inj.Focus)
	assert.Equal(t, []int{3}, inj.EnterIDs)
	assert.Equal(t, []int{3, 3}, inj.ExitIDs, "before the return and in the handler")
}

// TestRewriteWhenOneEntryIsMissing: a full pool that holds every entry a
// rewrite needs but one (the id, one of the runtime's methods, Throwable,
// StackMapTable) refuses the rewrite for that one: no instruction may name
// an entry that could not be added.
func TestRewriteWhenOneEntryIsMissing(t *testing.T) {
	const id = 100000
	rt := DefaultRuntime()
	entries := map[string]func(p *cf.ConstantPool) error{
		"id":      func(p *cf.ConstantPool) error { _, err := p.AddInteger(id); return err },
		"section": func(p *cf.ConstantPool) error { _, err := p.AddString("100000"); return err },
		"enter":   func(p *cf.ConstantPool) error { _, err := p.AddMethodref(rt.BeatClass, rt.Enter, "(I)V"); return err },
		"exit":    func(p *cf.ConstantPool) error { _, err := p.AddMethodref(rt.BeatClass, rt.Exit, "(I)V"); return err },
		"begin": func(p *cf.ConstantPool) error {
			_, err := p.AddMethodref(rt.TraceClass, rt.Begin, "(Ljava/lang/String;)V")
			return err
		},
		"end": func(p *cf.ConstantPool) error { _, err := p.AddMethodref(rt.TraceClass, rt.End, "()V"); return err },
		"focus": func(p *cf.ConstantPool) error {
			_, err := p.AddMethodref(rt.BeatClass, rt.Focus, focusCallDesc)
			return err
		},
		"throwable": func(p *cf.ConstantPool) error { _, err := p.AddClass(throwableClass); return err },
		"smt":       func(p *cf.ConstantPool) error { _, err := p.AddUtf8(stackMapTableName); return err },
	}
	modes := map[Mode][]string{
		ModeBeat:     {"id", "enter", "exit", "focus", "throwable", "smt"},
		ModeSystrace: {"section", "begin", "end", "focus", "throwable", "smt"},
	}
	for mode, needed := range modes {
		for _, missing := range needed {
			t.Run(fmt.Sprintf("%s/%s", mode, missing), func(t *testing.T) {
				a := newCtorAsm(t, 2)
				a.code.MaxStack = 1
				a.op("", cf.ICONST_0).op("", cf.POP).op("", cf.RETURN)
				c := handClass(t, a, 52, "onWindowFocusChanged", "(Z)V", 0)
				for _, n := range needed {
					if n != missing {
						require.NoError(t, entries[n](c.Pool))
					}
				}
				// The missing entry's own parts (a name, a class) may be
				// there: only its last entry cannot be added.
				switch missing {
				case "enter", "exit", "focus":
					_, err := c.Pool.AddClass(rt.BeatClass)
					require.NoError(t, err)
				case "begin", "end":
					_, err := c.Pool.AddClass(rt.TraceClass)
					require.NoError(t, err)
				case "section":
					_, err := c.Pool.AddUtf8("100000")
					require.NoError(t, err)
				case "throwable":
					_, err := c.Pool.AddUtf8(throwableClass)
					require.NoError(t, err)
				}
				for n := int32(0); c.Pool.Count() < 65535; n++ {
					_, err := c.Pool.AddInteger(1_000_000 + n)
					require.NoError(t, err)
				}
				before := append([]byte(nil), c.Methods[0].Attributes[0].Data...)
				mrt := rt
				mrt.Mode = mode
				skipped, changed, err := RewriteClass(c, &mrt, []MethodPlan{{Index: 0, Trace: true, ID: id, Focus: true}})
				require.NoError(t, err)
				require.Len(t, skipped, 1, "refused")
				assert.Equal(t, ReasonPoolFull, skipped[0].Reason)
				assert.False(t, changed)
				assert.Equal(t, before, c.Methods[0].Attributes[0].Data)
			})
		}
	}
}
