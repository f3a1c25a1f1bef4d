package rewrite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	cf "github.com/tracebeat/tracebeat/classfile"
)

// Opcodes the classfile package does not name (JVMS §6.5).
const (
	opICONST1 cf.Opcode = 0x04
	opICONST2 cf.Opcode = 0x05
	opLCONST0 cf.Opcode = 0x09
	opLCONST1 cf.Opcode = 0x0a
	opFCONST0 cf.Opcode = 0x0b
	opDCONST0 cf.Opcode = 0x0e
	opLLOAD1  cf.Opcode = 0x1f
	opALOAD1  cf.Opcode = 0x2b
	opALOAD2  cf.Opcode = 0x2c
	opLSTORE  cf.Opcode = 0x37
	opFSTORE  cf.Opcode = 0x38
	opDSTORE  cf.Opcode = 0x39
	opLSTORE1 cf.Opcode = 0x40
	opFSTORE3 cf.Opcode = 0x46
	opDSTORE0 cf.Opcode = 0x47
	opDSTORE1 cf.Opcode = 0x48
	opASTORE0 cf.Opcode = 0x4b
	opASTORE1 cf.Opcode = 0x4c
	opASTORE2 cf.Opcode = 0x4d
	opPOP2    cf.Opcode = 0x58
	opDUPX1   cf.Opcode = 0x5a
	opDUPX2   cf.Opcode = 0x5b
	opDUP2    cf.Opcode = 0x5c
	opDUP2X1  cf.Opcode = 0x5d
	opDUP2X2  cf.Opcode = 0x5e
)

// ctorAsm writes a constructor's code by hand for the analysis's unit
// tests: the compiled fixtures reach few of its paths, and none of its
// refusals.
type ctorAsm struct {
	code   cf.Code
	pool   *cf.ConstantPool
	labels map[string]cf.Label
}

func newCtorAsm(t *testing.T, maxLocals uint16) *ctorAsm {
	a := &ctorAsm{labels: map[string]cf.Label{}, pool: basePool(t)}
	a.code.MaxLocals = maxLocals
	return a
}

// basePool is the pool of a class file written here byte by byte: the
// pool's API adds no InvokeDynamic, and a parsed pool has one. Entries:
// 1 "p/C", 2 Class p/C, 3 "run", 4 "(II)Ljava/lang/Runnable;",
// 5 NameAndType, 6 InvokeDynamic #0:run.
func basePool(t *testing.T) *cf.ConstantPool {
	utf := func(s string) []byte { return append([]byte{cf.TagUtf8, 0, byte(len(s))}, s...) }
	b := []byte{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, 0, 7}
	b = append(b, utf("p/C")...)
	b = append(b, cf.TagClass, 0, 1)
	b = append(b, utf("run")...)
	b = append(b, utf("(II)Ljava/lang/Runnable;")...)
	b = append(b, cf.TagNameAndType, 0, 3, 0, 4)
	b = append(b, cf.TagInvokeDynamic, 0, 0, 0, 5)
	b = append(b, 0, 0x21, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	c, err := cf.Parse(b)
	require.NoError(t, err)
	return c.Pool
}

// indy returns the pool's InvokeDynamic, which has the name and
// descriptor given (basePool's).
func (a *ctorAsm) indy(t *testing.T, name, desc string) int32 {
	n, d, err := a.pool.NameAndType(5)
	require.NoError(t, err)
	require.Equal(t, []string{name, desc}, []string{n, d})
	return 6
}

// label returns the label called name, allocated on first use.
func (a *ctorAsm) label(name string) cf.Label {
	if l, ok := a.labels[name]; ok {
		return l
	}
	l := a.code.NewLabel()
	a.labels[name] = l
	return l
}

// op appends an instruction; mark names the label placed on it ("" none).
func (a *ctorAsm) op(mark string, op cf.Opcode, operands ...int32) *ctorAsm {
	in := cf.Insn{Op: op}
	if mark != "" {
		in.Mark = a.label(mark)
	}
	if len(operands) > 0 {
		in.A = operands[0]
	}
	if len(operands) > 1 {
		in.B = operands[1]
	}
	a.code.Insns = append(a.code.Insns, in)
	return a
}

// jump appends a branch to the label called target.
func (a *ctorAsm) jump(mark string, op cf.Opcode, target string) *ctorAsm {
	a.op(mark, op)
	a.code.Insns[len(a.code.Insns)-1].Target = a.label(target)
	return a
}

// ref adds a member reference (a Methodref: step reads only its name and
// descriptor, for fields too).
func (a *ctorAsm) ref(t *testing.T, name, desc string) int32 {
	i, err := a.pool.AddMethodref("p/C", name, desc)
	require.NoError(t, err)
	return int32(i)
}

// frame adds a full stack map frame at the label called at.
func (a *ctorAsm) frame(at string, locals ...cf.VType) *ctorAsm {
	smt := a.code.StackMapTable()
	if smt == nil {
		name, _ := a.pool.AddUtf8("StackMapTable") // a pool this small has room
		a.code.Attributes = append(a.code.Attributes, cf.CodeAttribute{Kind: cf.AttrStackMapTable, Name: name})
		smt = &a.code.Attributes[len(a.code.Attributes)-1]
	}
	smt.Frames = append(smt.Frames, cf.Frame{Kind: cf.FrameFull, At: a.label(at), Locals: locals})
	return a
}

func (a *ctorAsm) handler(start, end, target string) *ctorAsm {
	a.code.Handlers = append(a.code.Handlers, cf.Handler{Start: a.label(start), End: a.label(end), Handler: a.label(target)})
	return a
}

// flowString renders the analysis per instruction: 'U' where this may be
// uninitialized, '.' where it is not, 'I' at a call that initializes it
// (this is uninitialized before it).
func flowString(f *ctorFlow) string {
	var b strings.Builder
	for i := range f.uninit {
		switch {
		case f.initCall[i]:
			b.WriteByte('I')
		case f.uninit[i]:
			b.WriteByte('U')
		default:
			b.WriteByte('.')
		}
	}
	return b.String()
}

var (
	uninitThis = cf.VType{Tag: cf.VUninitializedThis}
	vInt       = cf.VType{Tag: cf.VInteger}
	vTop       = cf.VType{Tag: cf.VTop}
)

// TestCtorFlow pins what the analysis finds on each kind of path: where
// this may be uninitialized and which call initializes it.
func TestCtorFlow(t *testing.T) {
	tests := []struct {
		name string
		desc string
		// build writes the code; locals is max_locals.
		locals uint16
		build  func(t *testing.T, a *ctorAsm)
		want   string
	}{{
		name: "super call", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).op("", cf.RETURN)
		},
		want: "UI.",
	}, {
		name: "an argument chosen by a branch", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ALOAD_0).op("", cf.ILOAD_1).jump("", cf.IFEQ, "two").
				op("", opICONST1).jump("", cf.GOTO, "call").
				op("two", opICONST2).
				op("call", cf.INVOKESPECIAL, a.ref(t, "<init>", "(I)V")).op("", cf.RETURN)
		},
		want: "UUUUUUI.",
	}, {
		name: "a call on another object is not the initialization", desc: "()V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", opALOAD1).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).
				op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).op("", cf.RETURN)
		},
		want: "UUUI.",
	}, {
		name: "a non-<init> invokespecial on this", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "helper", "()V")).
				op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).op("", cf.RETURN)
		},
		want: "UUUI.",
	}, {
		// this stored in local 2, loaded back and initialized; the copy
		// left on the stack by dup is initialized with it, so storing
		// and calling <init> on it again is no initialization.
		name: "copies of this", desc: "()V", locals: 3,
		build: func(t *testing.T, a *ctorAsm) {
			init := a.ref(t, "<init>", "()V")
			a.op("", cf.ALOAD_0).op("", opASTORE2).op("", opALOAD2).op("", cf.DUP).
				op("", cf.INVOKESPECIAL, init).
				op("", opASTORE1).op("", opALOAD1).op("", cf.INVOKESPECIAL, init).
				op("", opALOAD2).op("", cf.INVOKESPECIAL, init).op("", cf.RETURN)
		},
		want: "UUUUI......",
	}, {
		// Stores of each kind and width, in both forms: only astore of
		// this carries it; a two-slot store takes two stack slots.
		name: "stores", desc: "()V", locals: 8,
		build: func(t *testing.T, a *ctorAsm) {
			init := a.ref(t, "<init>", "()V")
			a.op("", cf.ALOAD_0).
				op("", opDCONST0).op("", opDSTORE1).
				op("", opLCONST0).op("", opLSTORE, 3).
				op("", opFCONST0).op("", opFSTORE3).
				op("", cf.ICONST_0).op("", cf.ISTORE, 5).
				op("", cf.ASTORE, 7).op("", cf.ALOAD, 7).op("", cf.INVOKESPECIAL, init).op("", cf.RETURN)
		},
		want: "UUUUUUUUUUUI.",
	}, {
		name: "a wide store overwrites this", desc: "()V", locals: 3,
		build: func(t *testing.T, a *ctorAsm) {
			init := a.ref(t, "<init>", "()V")
			a.op("", cf.ALOAD_0).op("", opASTORE1).
				op("", opLCONST0).op("", opLSTORE1).
				op("", opALOAD1).op("", cf.INVOKESPECIAL, init).
				op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, init).op("", cf.RETURN)
		},
		want: "UUUUUUUI.",
	}, {
		name: "fields before and after", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			long := a.ref(t, "f", "J")
			a.op("", cf.ALOAD_0).op("", opLCONST1).op("", cf.PUTFIELD, long).
				op("", cf.GETSTATIC, long).op("", cf.PUTSTATIC, long).
				op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).
				op("", cf.ALOAD_0).op("", cf.GETFIELD, long).op("", opPOP2).op("", cf.RETURN)
		},
		want: "UUUUUUI....",
	}, {
		// An argument of two slots, then a receiver: the receiver is
		// found under the argument's slots.
		name: "arguments", desc: "(J)V", locals: 3,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ALOAD_0).op("", opLLOAD1).op("", opICONST1).
				op("", cf.INVOKESTATIC, a.ref(t, "s", "(JI)J")).
				op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "(J)V")).op("", cf.RETURN)
		},
		want: "UUUUI.",
	}, {
		name: "multianewarray pops its dimensions", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			cls, err := a.pool.AddClass("[[I")
			require.NoError(t, err)
			a.op("", cf.ALOAD_0).op("", opICONST1).op("", opICONST2).op("", cf.MULTIANEWARRAY, int32(cls), 2).
				op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "([[I)V")).op("", cf.RETURN)
		},
		want: "UUUUI.",
	}, {
		// A handler over the code before the call is entered with this
		// uninitialized; over the code after it, initialized. The span's
		// end is exclusive and its start inclusive.
		name: "handlers", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("s1", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).
				op("e1", cf.NOP).op("", cf.NOP).op("e2", cf.RETURN).
				op("h1", cf.ATHROW).op("h2", cf.ATHROW).op("h3", cf.ATHROW)
			a.handler("s1", "e1", "h1").handler("e1", "e2", "h2").handler("e2", "h1", "h3")
		},
		want: "UI...U..",
	}, {
		name: "a handler's span ends at the call", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ALOAD_0).op("e", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).op("", cf.RETURN).
				op("h", cf.ATHROW).op("h2", cf.ATHROW)
			a.handler("e", "h", "h2")
			a.code.Handlers = append(a.code.Handlers, cf.Handler{Start: a.label("e"), End: a.label("e"), Handler: a.label("h")})
		},
		// h is never reached (an empty span): no state, counted uninitialized.
		want: "UI.UU",
	}, {
		// The frame at a label is the state there, whatever flows in:
		// the verifier reads it so.
		name: "frames", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			init := a.ref(t, "<init>", "()V")
			a.op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, init).
				op("", cf.ILOAD_1).jump("", cf.IFEQ, "f").
				op("", cf.RETURN).
				op("f", cf.RETURN)
			a.frame("f", uninitThis, vInt)
		},
		want: "UI...U",
	}, {
		name: "a frame at the first instruction", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("top", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).op("", cf.RETURN)
			a.frame("top", cf.VType{Tag: cf.VObject})
		},
		want: "...",
	}, {
		name: "a loop joins its states", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("loop", cf.ILOAD_1).jump("", cf.IFEQ, "done").
				op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).
				jump("", cf.GOTO, "loop").
				op("done", cf.RETURN)
		},
		want: "UUUI.U",
	}, {
		// The initialized path reaches the return first; the other,
		// queued before it, then widens the return's state.
		name: "an uninitialized path joins an initialized one", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ALOAD_0).op("", cf.ILOAD_1).jump("", cf.IFEQ, "skip").
				op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).jump("", cf.GOTO, "ret").
				op("skip", cf.POP).
				op("ret", cf.RETURN)
		},
		want: "UUUI.UU",
	}, {
		name: "switches", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			init := a.ref(t, "<init>", "()V")
			a.op("", cf.ALOAD_0).op("", cf.ILOAD_1).op("", cf.TABLESWITCH, 0).
				op("c0", cf.INVOKESPECIAL, init).op("", cf.RETURN).
				op("c1", cf.POP).op("", cf.RETURN).
				op("d", cf.INVOKESPECIAL, init).op("", cf.RETURN)
			a.code.Switches = []cf.Switch{{Default: a.label("d"), Targets: []cf.Label{a.label("c0"), a.label("c1")}}}
		},
		want: "UUUI.UUI.",
	}, {
		name: "a static method has no this", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ACONST_NULL).op("", opASTORE0).op("", cf.ICONST_0).op("", cf.ISTORE_0).op("", cf.RETURN)
		},
		want: ".....",
	}, {
		// A span running to the end of the code ends at its end label; an
		// empty span at the first instruction and a handler there are
		// allowed.
		name: "spans at the edges", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("top", cf.ALOAD_0).op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).
				op("after", cf.NOP).op("", cf.RETURN).op("h", cf.ATHROW)
			a.code.End = a.label("end")
			a.handler("after", "end", "h").handler("top", "top", "h").handler("h", "end", "top")
			a.frame("top", uninitThis) // the frame, not the handler's stack, is the state there
		},
		want: "UI...",
	}, {
		// Two arguments in, one result out: the receiver is found under it.
		name: "invokedynamic before the call", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			indy := a.indy(t, "run", "(II)Ljava/lang/Runnable;")
			a.op("", cf.ALOAD_0).op("", cf.ICONST_0).op("", cf.ICONST_0).op("", cf.INVOKEDYNAMIC, indy).op("", cf.POP).
				op("", cf.INVOKESPECIAL, a.ref(t, "<init>", "()V")).op("", cf.RETURN)
		},
		want: "UUUUUI.",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newCtorAsm(t, tt.locals)
			tt.build(t, a)
			var sc ctorScratch
			flow, err := sc.analyze(&a.code, a.pool, tt.desc, tt.name == "a static method has no this")
			require.NoError(t, err)
			assert.Equal(t, tt.want, flowString(flow))
			// The scratch is reused: a second analysis of other code
			// after this one gives that code's answer.
			b := newCtorAsm(t, 1)
			b.op("", cf.ALOAD_0).op("", cf.INVOKESPECIAL, b.ref(t, "<init>", "()V")).op("", cf.RETURN)
			flow, err = sc.analyze(&b.code, b.pool, "()V", false)
			require.NoError(t, err)
			assert.Equal(t, "UI.", flowString(flow))
		})
	}
}

// TestCtorFlowRefuses lists the code the analysis refuses (the rewriter
// then leaves the constructor as it is), each with the reason it gives.
func TestCtorFlowRefuses(t *testing.T) {
	tests := []struct {
		name   string
		desc   string
		locals uint16
		build  func(t *testing.T, a *ctorAsm)
		want   string
	}{{
		name: "jsr", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.jump("", cf.JSR, "r").op("", cf.RETURN).op("r", opASTORE0).op("", cf.RET, 0)
		},
		want: "jsr/ret in a constructor",
	}, {
		name: "jsr_w", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.jump("", cf.JSR_W, "r").op("", cf.RETURN).op("r", opASTORE0).op("", cf.RETURN)
		},
		want: "jsr/ret in a constructor",
	}, {
		name: "ret", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.op("", cf.RET, 0) },
		want:  "jsr/ret in a constructor",
	}, {
		name: "falls off the end", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.op("", cf.NOP) },
		want:  "code falls off its end",
	}, {
		name: "a branch to no instruction", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.jump("", cf.GOTO, "nowhere") },
		want:  "control flow leaves the code",
	}, {
		name: "a branch to the end of the code", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.jump("", cf.GOTO, "end")
			a.code.End = a.label("end")
		},
		want: "control flow leaves the code",
	}, {
		name: "a switch to no instruction", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ILOAD_1).op("", cf.LOOKUPSWITCH, 0).op("d", cf.RETURN)
			a.code.Switches = []cf.Switch{{Default: a.label("d"), Keys: []int32{1}, Targets: []cf.Label{a.label("nowhere")}}}
		},
		want: "control flow leaves the code",
	}, {
		name: "a switch default to no instruction", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ILOAD_1).op("", cf.LOOKUPSWITCH, 0).op("d", cf.RETURN)
			a.code.Switches = []cf.Switch{{Default: a.label("nowhere"), Keys: []int32{1}, Targets: []cf.Label{a.label("d")}}}
		},
		want: "control flow leaves the code",
	}, {
		name: "a handler at no instruction", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("s", cf.RETURN)
			a.handler("s", "nowhere", "s")
		},
		want: "exception handler with an unplaced label",
	}, {
		name: "a handler starting nowhere", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("s", cf.RETURN)
			a.handler("nowhere", "s", "s")
		},
		want: "exception handler with an unplaced label",
	}, {
		name: "a handler target nowhere", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("s", cf.RETURN)
			a.handler("s", "s", "nowhere")
		},
		want: "exception handler with an unplaced label",
	}, {
		name: "a handler target past the end", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("s", cf.RETURN)
			a.code.End = a.label("end")
			a.handler("s", "end", "end")
		},
		want: "exception handler with an unplaced label",
	}, {
		name: "a frame at no instruction", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.RETURN)
			a.frame("nowhere", uninitThis)
		},
		want: "stack map frame at an unplaced label",
	}, {
		name: "a frame past the end", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.RETURN)
			a.code.End = a.label("end")
			a.frame("end", uninitThis)
		},
		want: "stack map frame at an unplaced label",
	}, {
		name: "a frame with more locals than max_locals", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("f", cf.RETURN)
			a.frame("f", uninitThis, vInt)
		},
		want: "frame has more locals than max_locals 1",
	}, {
		name: "stack heights that differ where paths meet", desc: "(I)V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ILOAD_1).jump("", cf.IFEQ, "j").op("", cf.ICONST_0).op("j", cf.RETURN)
		},
		want: "stack heights 0 and 1 meet",
	}, {
		name: "a pop of an empty stack", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.op("", cf.POP) },
		want:  "stack underflow: pop 1 of 0",
	}, {
		name: "aload past max_locals", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.op("", opALOAD1) },
		want:  "aload 1 out of range",
	}, {
		name: "astore past max_locals", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.op("", cf.ACONST_NULL).op("", opASTORE1) },
		want:  "local 1 out of range (max_locals 1)",
	}, {
		name: "a wide store past max_locals", desc: "()V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) { a.op("", opLCONST0).op("", opLSTORE1) },
		want:  "local 2 out of range (max_locals 2)",
	}, {
		name: "a store of an empty stack", desc: "()V", locals: 2,
		build: func(t *testing.T, a *ctorAsm) { a.op("", cf.ICONST_0).op("", opDSTORE0) },
		want:  "stack underflow at store",
	}, {
		name: "an invoke without its receiver", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ICONST_0).op("", cf.INVOKEVIRTUAL, a.ref(t, "m", "(I)V"))
		},
		want: "stack underflow at invoke receiver",
	}, {
		name: "an invoke without its arguments", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.INVOKESTATIC, a.ref(t, "m", "(I)V"))
		},
		want: "stack underflow: pop 1 of 0",
	}, {
		name: "putfield without its value", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.ALOAD_0).op("", cf.PUTFIELD, a.ref(t, "f", "J"))
		},
		want: "stack underflow: pop 3 of 1",
	}, {
		name: "getfield without its object", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.GETFIELD, a.ref(t, "f", "I"))
		},
		want: "stack underflow: pop 1 of 0",
	}, {
		name: "a field of no type", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.GETSTATIC, a.ref(t, "f", "")).op("", cf.RETURN)
		},
		want: "instruction 0 (getstatic)",
	}, {
		name: "a reference to no member", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.GETSTATIC, 0).op("", cf.RETURN)
		},
		want: "instruction 0 (getstatic): constant pool index 0",
	}, {
		name: "a reference past the pool", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.ref(t, "f", "I")
			a.op("", cf.GETSTATIC, int32(a.pool.Count())).op("", cf.RETURN)
		},
		want: "instruction 0 (getstatic): constant pool index",
	}, {
		// An Integer whose four bytes read as a Class index and a
		// NameAndType index: not a member reference for all that.
		name: "an Integer that looks like a reference", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			ref := a.ref(t, "f", "I")
			_, body, err := a.pool.Entry(uint16(ref))
			require.NoError(t, err)
			i, err := a.pool.AddInteger(int32(uint32(body[0])<<24 | uint32(body[1])<<16 | uint32(body[2])<<8 | uint32(body[3])))
			require.NoError(t, err)
			a.op("", cf.GETSTATIC, int32(i)).op("", cf.RETURN)
		},
		want: "instruction 0 (getstatic)",
	}, {
		name: "a method of a bad descriptor", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.INVOKESTATIC, a.ref(t, "m", "(V")).op("", cf.RETURN)
		},
		want: "instruction 0 (invokestatic)",
	}, {
		name: "invokedynamic of a Methodref", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", cf.INVOKEDYNAMIC, a.ref(t, "m", "()V")).op("", cf.RETURN)
		},
		want: "invokedynamic operand is not an InvokeDynamic constant",
	}, {
		name: "multianewarray without its dimensions", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) {
			a.op("", opICONST1).op("", cf.MULTIANEWARRAY, 0, 2)
		},
		want: "stack underflow: pop 2 of 1",
	}, {
		name: "an opcode that is none", desc: "()V", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.op("", cf.Opcode(0xcb)) },
		want:  "opcode 0xcb has no stack effect",
	}, {
		name: "a bad descriptor", desc: "(", locals: 1,
		build: func(t *testing.T, a *ctorAsm) { a.op("", cf.RETURN) },
		want:  "",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newCtorAsm(t, tt.locals)
			tt.build(t, a)
			var sc ctorScratch
			_, err := sc.analyze(&a.code, a.pool, tt.desc, false)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestDupFamily runs each of dup..swap on a stack whose slots are told
// apart (true marks this), at the bottom, middle and top.
func TestDupFamily(t *testing.T) {
	tests := []struct {
		op   cf.Opcode
		in   string // bottom first: 'T' this, '.' another value
		want string
	}{
		{cf.DUP, "T", "TT"},
		{cf.DUP, ".T", ".TT"},
		{opDUPX1, ".T", "T.T"},
		{opDUPX1, "T.", ".T."},
		{opDUPX2, "..T", "T..T"},
		{opDUPX2, "T..", ".T.."},
		{opDUPX2, ".T.", "..T."},
		{opDUP2, ".T", ".T.T"},
		{opDUP2, "T.", "T.T."},
		{opDUP2X1, "..T", ".T..T"},
		{opDUP2X1, "T..", "..T.."},
		{opDUP2X1, ".T.", "T..T."},
		{opDUP2X2, "...T", ".T...T"},
		{opDUP2X2, "T...", "..T..."},
		{opDUP2X2, ".T..", "...T.."},
		{opDUP2X2, "..T.", "T...T."},
		{cf.SWAP, ".T", "T."},
		{cf.SWAP, "T.", ".T"},
		{cf.SWAP, "..T.", "...T"},
	}
	for _, tt := range tests {
		s := &slotState{}
		for _, c := range tt.in {
			s.push(c == 'T', 1)
		}
		require.NoError(t, dupFamily(s, tt.op), "%s %s", tt.op, tt.in)
		var got strings.Builder
		for _, v := range s.stack {
			if v {
				got.WriteByte('T')
			} else {
				got.WriteByte('.')
			}
		}
		assert.Equal(t, tt.want, got.String(), "%s on %s", tt.op, tt.in)
	}
	for op, need := range map[cf.Opcode]int{cf.DUP: 1, opDUPX1: 2, opDUPX2: 3, opDUP2: 2, opDUP2X1: 3, opDUP2X2: 4, cf.SWAP: 2} {
		s := &slotState{}
		s.push(false, need-1)
		assert.ErrorContains(t, dupFamily(s, op), "stack underflow at", op.String())
	}
}

// TestSlotJoin pins the "may" join: a slot grows to hold this, never
// back, and growth is reported.
func TestSlotJoin(t *testing.T) {
	state := func(flag bool, locals, stack string) *slotState {
		s := &slotState{flag: flag}
		for _, c := range locals {
			s.locals = append(s.locals, c == 'T')
		}
		for _, c := range stack {
			s.stack = append(s.stack, c == 'T')
		}
		return s
	}
	tests := []struct {
		name       string
		s, o       *slotState
		want       *slotState
		grew       bool
		wantHeight bool
	}{
		{"nothing new", state(true, "T.", "T"), state(false, "..", "."), state(true, "T.", "T"), false, false},
		{"the flag", state(false, "..", "."), state(true, "..", "."), state(true, "..", "."), true, false},
		{"a local", state(false, ".", "."), state(false, "T", "."), state(false, "T", "."), true, false},
		{"the last local", state(false, "..", ""), state(false, ".T", ""), state(false, ".T", ""), true, false},
		{"a stack slot", state(false, ".", ".."), state(false, ".", ".T"), state(false, ".", ".T"), true, false},
		{"fewer locals on the other side", state(false, "..", ""), state(false, "T", ""), state(false, "T.", ""), true, false},
		{"stack heights", state(false, ".", "."), state(false, ".", ".."), nil, false, true},
	}
	for _, tt := range tests {
		grew, err := tt.s.join(tt.o)
		if tt.wantHeight {
			assert.ErrorContains(t, err, "stack heights 1 and 2 meet", tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.grew, grew, tt.name)
		assert.Equal(t, tt.want, tt.s, tt.name)
	}
}
