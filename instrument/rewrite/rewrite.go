package rewrite

import (
	"fmt"
	"sort"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// RewriteClass applies plans to c in place and returns the planned methods
// that were left untouched, with the reason. A method that cannot be
// rewritten validly keeps its original code. changed reports whether any
// method was rewritten.
func RewriteClass(c *cf.Class, rt *Runtime, plans []MethodPlan) (skipped []MethodOutcome, changed bool, err error) {
	w, err := newScratchRewriter(c, rt)
	if err != nil {
		return nil, false, err
	}
	defer w.release()
	// The caller's slice is not reordered; plans in index order (the usual
	// case) need no copy.
	if !plansSorted(plans) {
		plans = append([]MethodPlan(nil), plans...)
		sort.Slice(plans, func(i, j int) bool { return plans[i].Index < plans[j].Index })
	}
	for _, p := range plans {
		if p.Index < 0 || p.Index >= len(c.Methods) {
			return nil, false, fmt.Errorf("plan for method %d of %d", p.Index, len(c.Methods))
		}
		if !p.Trace && !p.Focus {
			continue
		}
		if err := w.rewriteMethod(p); err != nil {
			skipped = append(skipped, MethodOutcome{Index: p.Index, Reason: ReasonOf(err), Err: err})
		}
	}
	return skipped, w.dirty, nil
}

// AddFocusMethod appends
//
//	public void onWindowFocusChanged(boolean f) { super.onWindowFocusChanged(f); at(this, f); }
//
// to c, whose direct superclass is superName.
func AddFocusMethod(c *cf.Class, rt *Runtime) error {
	if _, err := c.Name(); err != nil {
		return err
	}
	w := &classRewriter{c: c, rt: rt}
	if c.SuperClass == 0 {
		return fmt.Errorf("class has no superclass")
	}
	superName, err := c.SuperName()
	if err != nil {
		return err
	}
	superRef, err := c.Pool.AddMethodref(superName, FocusMethod, FocusMethodDesc)
	if err != nil {
		return err
	}
	call, err := w.focusCall()
	if err != nil {
		return err
	}
	code := &cf.Code{MaxStack: 2, MaxLocals: 2}
	code.Insns = append([]cf.Insn{{Op: cf.ALOAD_0}, {Op: cf.ILOAD_1}, {Op: cf.INVOKESPECIAL, A: int32(superRef)}}, call...)
	code.Insns = append(code.Insns, cf.Insn{Op: cf.RETURN})
	body, err := code.Encode()
	if err != nil {
		return err
	}
	codeName, err := c.Pool.AddUtf8("Code")
	if err != nil {
		return err
	}
	name, err := c.Pool.AddUtf8(FocusMethod)
	if err != nil {
		return err
	}
	desc, err := c.Pool.AddUtf8(FocusMethodDesc)
	if err != nil {
		return err
	}
	if len(c.Methods) >= 0xFFFF {
		return fmt.Errorf("class already has %d methods", len(c.Methods))
	}
	c.Methods = append(c.Methods, cf.Member{
		Access:     cf.AccPublic,
		Name:       name,
		Descriptor: desc,
		Attributes: []cf.Attribute{{Name: codeName, Data: body}},
	})
	return nil
}

func plansSorted(plans []MethodPlan) bool {
	for i := 1; i < len(plans); i++ {
		if plans[i].Index < plans[i-1].Index {
			return false
		}
	}
	return true
}
