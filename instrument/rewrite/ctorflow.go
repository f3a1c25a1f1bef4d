package rewrite

import (
	"encoding/binary"
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

// handlerSpan is an exception-table entry resolved to instruction indices.
type handlerSpan struct{ start, end, target int }

// ctorScratch holds the buffers of the constructor analysis, reused from
// constructor to constructor. The slot states stored per instruction are
// carved out of two arenas (structs and bools) that are reset, not freed,
// between analyses.
type ctorScratch struct {
	flow     ctorFlow
	labelIdx []int32
	states   []*slotState
	fixed    []bool
	work     []int
	spans    []handlerSpan
	cur      slotState // the state being stepped
	tmp      slotState // a state read from a stack map frame
	hs       slotState // a handler's entry state (borrows cur's locals)

	structs []slotState
	bools   []bool

	refs refCache
}

// resetClass forgets what belongs to the previous class.
func (sc *ctorScratch) resetClass(pool *cf.ConstantPool) {
	sc.refs.pool = pool
	sc.refs.entries = sc.refs.entries[:0]
}

// store copies s into the arenas. Its slices are capped so that nothing
// appended to them can reach a neighbour.
func (sc *ctorScratch) store(s *slotState) *slotState {
	if len(sc.structs) == cap(sc.structs) {
		sc.structs = make([]slotState, 0, max(256, 2*cap(sc.structs)))
	}
	n := len(s.locals) + len(s.stack)
	if len(sc.bools)+n > cap(sc.bools) {
		sc.bools = make([]bool, 0, max(4096, 2*cap(sc.bools), n))
	}
	at := len(sc.bools)
	sc.bools = append(append(sc.bools, s.locals...), s.stack...)
	nl := at + len(s.locals)
	sc.structs = append(sc.structs, slotState{
		flag:   s.flag,
		locals: sc.bools[at:nl:nl],
		stack:  sc.bools[nl : at+n : at+n],
	})
	return &sc.structs[len(sc.structs)-1]
}

// load makes the working state cur a copy of s.
func (sc *ctorScratch) load(s *slotState) *slotState {
	sc.cur.flag = s.flag
	sc.cur.locals = append(sc.cur.locals[:0], s.locals...)
	sc.cur.stack = append(sc.cur.stack[:0], s.stack...)
	return &sc.cur
}

// analyze runs a data-flow pass over a constructor. States at stack map
// frames are taken from the frames (as the verifier does); elsewhere they
// flow along control-flow and exception edges and join with "may". The
// result lives in sc until the next call.
func (sc *ctorScratch) analyze(code *cf.Code, pool *cf.ConstantPool, desc string, static bool) (*ctorFlow, error) {
	if sc.refs.pool != pool {
		sc.resetClass(pool)
	}
	n := len(code.Insns)
	flow := &sc.flow
	flow.uninit = resetBools(flow.uninit, n)
	flow.initCall = resetBools(flow.initCall, n)
	sc.fixed = resetBools(sc.fixed, n) // state comes from a stack map frame
	sc.states = resetSlice(sc.states, n)
	sc.structs = sc.structs[:0]
	sc.bools = sc.bools[:0]
	sc.work = sc.work[:0]
	sc.spans = sc.spans[:0]
	states, fixed := sc.states, sc.fixed

	labelIdx := sc.labelIdx[:0]
	for range code.NumLabels() {
		labelIdx = append(labelIdx, -1)
	}
	sc.labelIdx = labelIdx
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
		s := &sc.tmp
		s.flag = false
		s.locals = resetBools(s.locals, maxLocals)
		s.stack = s.stack[:0]
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
		return sc.store(s), nil
	}

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
			sc.work = append(sc.work, i)
		}
	}
	if !fixed[0] {
		if states[0], err = toState(initial, nil); err != nil {
			return nil, err
		}
		sc.work = append(sc.work, 0)
	}

	for _, h := range code.Handlers {
		s, e, t := at(h.Start), at(h.End), at(h.Handler)
		if s < 0 || e < 0 || t < 0 || t >= n {
			return nil, fmt.Errorf("exception handler with an unplaced label")
		}
		if s < e {
			sc.spans = append(sc.spans, handlerSpan{s, e, t})
		}
	}
	spans := sc.spans

	// merge feeds state s into instruction i and queues it when it changed.
	merge := func(i int, s *slotState) error {
		if i < 0 || i >= n {
			return fmt.Errorf("control flow leaves the code")
		}
		if fixed[i] {
			return nil
		}
		if states[i] == nil {
			states[i] = sc.store(s)
			sc.work = append(sc.work, i)
			return nil
		}
		grew, err := states[i].join(s)
		if err != nil {
			return fmt.Errorf("instruction %d: %w", i, err)
		}
		if grew {
			sc.work = append(sc.work, i)
		}
		return nil
	}

	hs := &sc.hs
	for len(sc.work) > 0 {
		i := sc.work[len(sc.work)-1]
		sc.work = sc.work[:len(sc.work)-1]
		s := sc.load(states[i])
		for {
			in := &code.Insns[i]
			if in.Op == cf.JSR || in.Op == cf.RET || in.Op == cf.JSR_W {
				return nil, fmt.Errorf("jsr/ret in a constructor")
			}
			// A handler is entered with the locals of the instruction and
			// just the exception on the stack; spans are in table order.
			for _, h := range spans {
				if i < h.start || i >= h.end {
					continue
				}
				hs.flag, hs.locals = s.flag, s.locals
				hs.stack = append(hs.stack[:0], false)
				if err := merge(h.target, hs); err != nil {
					return nil, err
				}
			}
			initThis, err := step(s, in, &sc.refs)
			if err != nil {
				return nil, fmt.Errorf("instruction %d (%s): %w", i, in.Op.String(), err)
			}
			if initThis {
				flow.initCall[i] = true
			}
			switch k := in.Op; {
			case cf.Opcode(k).IsBranch():
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
			states[i] = sc.store(s)
		}
	}
	for i := range states {
		flow.uninit[i] = states[i] == nil || states[i].flag
	}
	return flow, nil
}

// resetBools returns b resized to n, all false.
func resetBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// resetSlice returns p resized to n, all nil.
func resetSlice(p []*slotState, n int) []*slotState {
	if cap(p) < n {
		return make([]*slotState, n)
	}
	p = p[:n]
	clear(p)
	return p
}

// endsFlow reports whether control never falls through op.
func endsFlow(op cf.Opcode) bool {
	return op.IsReturn() || op == cf.ATHROW || op == cf.GOTO || op == cf.GOTO_W ||
		op == cf.TABLESWITCH || op == cf.LOOKUPSWITCH || op == cf.RET
}

// refCache resolves the member references of one class's pool, each at
// most once per class, to the two things step needs: whether the name is
// <init> and the descriptor's bytes (aliasing the pool, whose existing
// entries never change).
type refCache struct {
	pool    *cf.ConstantPool
	entries []cachedRef
}

type cachedRef struct {
	ok     bool
	isInit bool
	desc   []byte
}

func (rc *refCache) ref(i uint16) (*cachedRef, error) {
	if len(rc.entries) == 0 {
		rc.entries = resetRefs(rc.entries, rc.pool.Count())
	}
	if int(i) < len(rc.entries) && rc.entries[i].ok {
		return &rc.entries[i], nil
	}
	r, ok := rawRef(rc.pool, i)
	if !ok {
		// Let the pool name the problem; should it resolve the entry
		// after all, take its answer.
		ref, err := rc.pool.Ref(i)
		if err != nil {
			return nil, err
		}
		r = cachedRef{ok: true, isInit: ref.Name == "<init>", desc: []byte(ref.Descriptor)}
	}
	if int(i) < len(rc.entries) {
		rc.entries[i] = r
		return &rc.entries[i], nil
	}
	return &r, nil
}

// rawRef resolves a Fieldref, Methodref or InterfaceMethodref without
// decoding its strings; ok is false wherever cf.ConstantPool.Ref would
// fail. Modified UTF-8 keeps ASCII as is, so comparing the raw name with
// "<init>" and parsing the raw descriptor give the decoded answers.
func rawRef(pool *cf.ConstantPool, i uint16) (cachedRef, bool) {
	tag := pool.Tag(i)
	if tag != cf.TagFieldref && tag != cf.TagMethodref && tag != cf.TagInterfaceMethodref {
		return cachedRef{}, false
	}
	_, b, err := pool.Entry(i)
	if err != nil || len(b) < 4 {
		return cachedRef{}, false
	}
	class, nt := binary.BigEndian.Uint16(b), binary.BigEndian.Uint16(b[2:])
	if pool.Tag(class) != cf.TagClass || pool.Tag(nt) != cf.TagNameAndType {
		return cachedRef{}, false
	}
	if _, cb, err := pool.Entry(class); err != nil || len(cb) < 2 {
		return cachedRef{}, false
	} else if _, err := pool.Utf8Bytes(binary.BigEndian.Uint16(cb)); err != nil {
		return cachedRef{}, false
	}
	_, nb, err := pool.Entry(nt)
	if err != nil || len(nb) < 4 {
		return cachedRef{}, false
	}
	name, err := pool.Utf8Bytes(binary.BigEndian.Uint16(nb))
	if err != nil {
		return cachedRef{}, false
	}
	desc, err := pool.Utf8Bytes(binary.BigEndian.Uint16(nb[2:]))
	if err != nil {
		return cachedRef{}, false
	}
	return cachedRef{ok: true, isInit: string(name) == "<init>", desc: desc}, true
}

func resetRefs(e []cachedRef, n int) []cachedRef {
	if cap(e) < n {
		return make([]cachedRef, n)
	}
	e = e[:n]
	clear(e)
	return e
}
