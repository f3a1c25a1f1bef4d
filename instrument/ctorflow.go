package instrument

import (
	"fmt"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// ctorFlow is what the rewriter needs to know about a constructor: at
// which instructions `this` may still be uninitialized (the verifier's
// flagThisUninit before the instruction), and which invokespecial <init>
// calls initialize it.
type ctorFlow struct {
	uninit   []bool // per instruction; true also for code never reached
	initCall []bool // per instruction
}

// analyzeCtor runs a data-flow pass over a constructor. States at stack
// map frames are taken from the frames (as the verifier does); elsewhere
// they flow along control-flow and exception edges and join with "may".
func analyzeCtor(code *cf.Code, pool *cf.ConstantPool, desc string, static bool) (*ctorFlow, error) {
	n := len(code.Insns)
	flow := &ctorFlow{uninit: make([]bool, n), initCall: make([]bool, n)}
	labelIdx := make([]int32, code.NumLabels())
	for i := range labelIdx {
		labelIdx[i] = -1
	}
	for i := range code.Insns {
		if m := code.Insns[i].Mark; m != cf.NoLabel {
			labelIdx[m] = int32(i)
		}
	}
	if code.End != cf.NoLabel {
		labelIdx[code.End] = int32(n)
	}
	at := func(l cf.Label) int { return int(labelIdx[l]) }

	initial, err := cf.InitialLocals(desc, static, true)
	if err != nil {
		return nil, err
	}
	maxLocals := int(code.MaxLocals)
	toState := func(locals, stack []cf.VType) (*slotState, error) {
		s := &slotState{locals: make([]bool, maxLocals)}
		slot := 0
		for _, v := range locals {
			if slot >= maxLocals {
				return nil, fmt.Errorf("frame has more locals than max_locals %d", maxLocals)
			}
			s.locals[slot] = v.Tag == cf.VUninitializedThis
			s.flag = s.flag || v.Tag == cf.VUninitializedThis
			slot += v.Slots()
		}
		for _, v := range stack {
			s.push(v.Tag == cf.VUninitializedThis, v.Slots())
		}
		return s, nil
	}

	states := make([]*slotState, n)
	fixed := make([]bool, n) // state comes from a stack map frame
	var work []int
	if smt := code.StackMapTable(); smt != nil {
		full, err := cf.ExpandFrames(initial, smt.Frames)
		if err != nil {
			return nil, err
		}
		for _, f := range full {
			i := at(f.At)
			if i < 0 || i >= n {
				return nil, fmt.Errorf("stack map frame at an unplaced label")
			}
			if states[i], err = toState(f.Locals, f.Stack); err != nil {
				return nil, err
			}
			fixed[i] = true
			work = append(work, i)
		}
	}
	if !fixed[0] {
		if states[0], err = toState(initial, nil); err != nil {
			return nil, err
		}
		work = append(work, 0)
	}

	// handlersAt[i] lists the handler entry points covering instruction i.
	handlersAt := make([][]int, n)
	for _, h := range code.Handlers {
		s, e, t := at(h.Start), at(h.End), at(h.Handler)
		if s < 0 || e < 0 || t < 0 || t >= n {
			return nil, fmt.Errorf("exception handler with an unplaced label")
		}
		for i := s; i < e; i++ {
			handlersAt[i] = append(handlersAt[i], t)
		}
	}

	// merge feeds state s into instruction i and queues it when it changed.
	merge := func(i int, s *slotState) error {
		if i < 0 || i >= n {
			return fmt.Errorf("control flow leaves the code")
		}
		if fixed[i] {
			return nil
		}
		if states[i] == nil {
			states[i] = s.clone()
			work = append(work, i)
			return nil
		}
		grew, err := states[i].join(s)
		if err != nil {
			return fmt.Errorf("instruction %d: %w", i, err)
		}
		if grew {
			work = append(work, i)
		}
		return nil
	}

	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		s := states[i].clone()
		for {
			in := &code.Insns[i]
			if in.Op == cf.JSR || in.Op == cf.RET || in.Op == cf.JSR_W {
				return nil, fmt.Errorf("jsr/ret in a constructor")
			}
			for _, t := range handlersAt[i] {
				hs := &slotState{flag: s.flag, locals: s.locals, stack: []bool{false}}
				if err := merge(t, hs); err != nil {
					return nil, err
				}
			}
			initThis, err := step(s, in, pool)
			if err != nil {
				return nil, fmt.Errorf("instruction %d (%s): %w", i, cf.OpcodeName(in.Op), err)
			}
			if initThis {
				flow.initCall[i] = true
			}
			switch k := in.Op; {
			case cf.IsBranch(k):
				if err := merge(at(in.Target), s); err != nil {
					return nil, err
				}
			case k == cf.TABLESWITCH || k == cf.LOOKUPSWITCH:
				sw := &code.Switches[in.A]
				if err := merge(at(sw.Default), s); err != nil {
					return nil, err
				}
				for _, t := range sw.Targets {
					if err := merge(at(t), s); err != nil {
						return nil, err
					}
				}
			}
			if endsFlow(in.Op) {
				break
			}
			i++
			if i >= n {
				return nil, fmt.Errorf("code falls off its end")
			}
			if fixed[i] || states[i] != nil {
				if err := merge(i, s); err != nil {
					return nil, err
				}
				break
			}
			states[i] = s.clone()
		}
	}
	for i := range states {
		flow.uninit[i] = states[i] == nil || states[i].flag
	}
	return flow, nil
}

// endsFlow reports whether control never falls through op.
func endsFlow(op uint8) bool {
	return cf.IsReturn(op) || op == cf.ATHROW || op == cf.GOTO || op == cf.GOTO_W ||
		op == cf.TABLESWITCH || op == cf.LOOKUPSWITCH || op == cf.RET
}
