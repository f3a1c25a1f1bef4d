package rewrite_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
	"github.com/tracebeat/tracebeat/instrument/rewrite"
	"github.com/tracebeat/tracebeat/internal/javatest"
)

// compiled is one compiler's output for the rewriter's tests.
type compiled struct {
	name    string
	classes map[string][]byte
	libs    []string // jars the classes link against
}

// compilers compiles the fixtures of each compiler whose constructors the
// rewriter must handle: javac's (testdata/instrument), Kotlin 1.3's
// (delegating constructors with computed arguments, default-argument
// constructors) and Groovy 2.4's (a switch over several this(...) calls,
// copies of the uninitialized this).
func compilers(t *testing.T) []compiled {
	t.Helper()
	javatest.RequireJava(t)
	out := []compiled{{name: "javac", classes: javatest.ClassFiles(t, javatest.InstrumentFixtures(t))}}
	for _, c := range []struct{ compiler, dir, lib string }{
		{"kotlinc", "kotlin", "/usr/share/java/kotlin-stdlib.jar"},
		{"groovyc", "groovy", "/usr/share/java/groovy-all.jar"},
	} {
		classes := javatest.Javac(t, javatest.Options{Compiler: c.compiler}, javatest.Testdata(t, "bytecode", c.dir))
		out = append(out, compiled{name: c.compiler, classes: javatest.ClassFiles(t, classes), libs: []string{c.lib}})
	}
	return out
}

// planAll plans every method with code for tracing, ids from next on.
func planAll(t *testing.T, c *cf.Class, next *int) []rewrite.MethodPlan {
	var plans []rewrite.MethodPlan
	for i := range c.Methods {
		if _, ok := c.FindAttribute(c.Methods[i].Attributes, "Code"); !ok {
			continue
		}
		if name, _, _ := c.MemberName(&c.Methods[i]); name == "<clinit>" {
			continue // traced like any method, but keep the test's id arithmetic simple
		}
		plans = append(plans, rewrite.MethodPlan{Index: i, ID: *next, Trace: true})
		*next++
	}
	return plans
}

// TestRewriteEveryMethod rewrites every method of each compiler's classes
// directly (no pipeline). A method is skipped only where no valid rewrite
// exists (javac's Big: a method at the 64 KiB limit, a branch at the
// 32 KiB one), and then keeps its code byte for byte; Kotlin's and
// Groovy's constructors are all rewritten. The recogniser finds in each
// rewritten method the id it was given (once per path into the body: a
// Groovy constructor choosing among this(...) calls enters after each) and
// one catch-all handler; a constructor's entry comes right after an
// invokespecial <init>; HotSpot accepts every class.
func TestRewriteEveryMethod(t *testing.T) {
	for _, comp := range compilers(t) {
		t.Run(comp.name, func(t *testing.T) {
			for _, mode := range []rewrite.Mode{rewrite.ModeBeat, rewrite.ModeSystrace} {
				rt := rewrite.DefaultRuntime()
				rt.Mode = mode
				out := map[string][]byte{}
				next, ctors := 1, 0
				names := make([]string, 0, len(comp.classes))
				for n := range comp.classes {
					names = append(names, n)
				}
				slices.Sort(names)
				for _, name := range names {
					c, err := cf.Parse(comp.classes[name])
					require.NoError(t, err, name)
					plans := planAll(t, c, &next)
					origCode := map[int][]byte{}
					for _, p := range plans {
						a, _ := c.FindAttribute(c.Methods[p.Index].Attributes, "Code")
						origCode[p.Index] = slices.Clone(a.Data)
					}
					skipped, changed, err := rewrite.RewriteClass(c, &rt, plans)
					require.NoError(t, err, name)
					require.Equal(t, len(plans) > len(skipped), changed, name)
					left := map[int]bool{}
					for _, sk := range skipped {
						require.Equal(t, "javac", comp.name, "%s %s: %v", mode, name, sk)
						require.Contains(t, []string{rewrite.ReasonCodeTooLarge, rewrite.ReasonBranchOverflow}, sk.Reason, "%s %s: %v", mode, name, sk)
						a, _ := c.FindAttribute(c.Methods[sk.Index].Attributes, "Code")
						require.Equal(t, origCode[sk.Index], a.Data, "%s %s: a skipped method keeps its code", mode, name)
						left[sk.Index] = true
					}
					data, err := c.Encode()
					require.NoError(t, err, name)
					out[name] = data

					again, err := cf.Parse(data)
					require.NoError(t, err, name)
					for _, p := range plans {
						if left[p.Index] {
							continue
						}
						m := &again.Methods[p.Index]
						mname, _, _ := again.MemberName(m)
						code := decodeCode(t, again, m)
						inj := rewrite.FindInjected(code, again.Pool, rt)
						where := fmt.Sprintf("%s %s.%s", mode, name, mname)
						require.NotEmpty(t, inj.EnterIDs, where)
						for _, id := range inj.EnterIDs {
							require.Equal(t, p.ID, id, where)
						}
						if mode == rewrite.ModeBeat {
							// An exit before every return and one in the catch-all,
							// each with the method's own id.
							returns := 0
							for _, in := range code.Insns {
								if in.Op >= cf.IRETURN && in.Op <= cf.RETURN {
									returns++
								}
							}
							require.Len(t, inj.ExitIDs, returns+1, "%s: exits", where)
							for _, id := range inj.ExitIDs {
								require.Equal(t, p.ID, id, "%s: an exit's id", where)
							}
						} else {
							require.Empty(t, inj.ExitIDs, where)
						}
						// One catch-all handler; a constructor's covers several
						// ranges (only code where this is initialized).
						require.Positive(t, countTrue(inj.Handlers), "%s: a catch-all", where)
						handlers := map[cf.Label]bool{}
						for i, h := range code.Handlers {
							if inj.Handlers[i] {
								handlers[h.Handler] = true
							}
						}
						require.Len(t, handlers, 1, "%s: one catch-all handler", where)
						if mname == "<init>" {
							ctors++
							for k, comment := range inj.Comments {
								if !strings.HasPrefix(comment, "tracebeat: enter") {
									continue
								}
								require.Positive(t, k, where)
								prev := code.Insns[k-1]
								require.Equal(t, cf.Opcode(cf.INVOKESPECIAL), prev.Op, "%s: entry after %s", where, prev.Op)
								r, err := again.Pool.Ref(uint16(prev.A))
								require.NoError(t, err)
								require.Equal(t, "<init>", r.Name, where)
							}
						} else {
							require.Len(t, inj.EnterIDs, 1, where)
						}
					}
				}
				require.Positive(t, ctors)
				jar := javatest.WriteJar(t, out)
				deps := append([]string{javatest.Jar(t, javatest.BeatStub(t)), javatest.Jar(t, javatest.SystraceStub(t))}, comp.libs...)
				v := javatest.RequireVerified(t, jar, deps...)
				assert.Equal(t, len(v.Classes), len(v.OK), "%s: every class verifies", mode)
			}
		})
	}
}

// TestRewriteLeavesUnplannedClassesAlone: a class rewritten with no plan
// stays byte-identical, and the recogniser finds nothing injected in code
// the compiler wrote.
func TestRewriteLeavesUnplannedClassesAlone(t *testing.T) {
	comp := compilers(t)[0]
	rt := rewrite.DefaultRuntime()
	for name, data := range comp.classes {
		c, err := cf.Parse(data)
		require.NoError(t, err)
		skipped, changed, err := rewrite.RewriteClass(c, &rt, nil)
		require.NoError(t, err)
		require.Empty(t, skipped)
		require.False(t, changed, name)
		got, err := c.Encode()
		require.NoError(t, err)
		require.Equal(t, data, got, name)
		for i := range c.Methods {
			if _, ok := c.FindAttribute(c.Methods[i].Attributes, "Code"); ok {
				require.False(t, rewrite.FindInjected(decodeCode(t, c, &c.Methods[i]), c.Pool, rt).Any(), "%s: nothing injected yet", name)
			}
		}
	}
}

// TestReasons: the reasons a method is left untouched name the cause.
func TestReasons(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("m: %w", cf.ErrCodeTooLarge), rewrite.ReasonCodeTooLarge},
		{fmt.Errorf("m: %w", cf.ErrPoolFull), rewrite.ReasonPoolFull},
		{fmt.Errorf("m: %w", cf.ErrBranchOverflow), rewrite.ReasonBranchOverflow},
		{fmt.Errorf("something else"), rewrite.ReasonMalformedCode},
	} {
		assert.Equal(t, tc.want, rewrite.ReasonOf(tc.err), tc.err.Error())
	}
}

func decodeCode(t *testing.T, c *cf.Class, m *cf.Member) *cf.Code {
	t.Helper()
	a, ok := c.FindAttribute(m.Attributes, "Code")
	require.True(t, ok)
	code, err := cf.DecodeCode(c.Pool, a.Data)
	require.NoError(t, err)
	return code
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
