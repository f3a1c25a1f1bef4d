package classfile

import (
	"encoding/binary"
	"fmt"
)

// Opcode is an instruction's opcode: a value that knows its mnemonic
// (String), its operand layout (the decoder's opInfo table), whether it
// returns or branches, and its effect on the operand stack where the
// opcode alone decides it (StackEffect). This package is the one place
// that knows opcodes; the constants below are untyped so that raw code
// bytes compare with them too.
type Opcode uint8

// String is the mnemonic ("invokestatic"), or "0xNN" for a byte the JVM
// does not define as an opcode.
func (op Opcode) String() string {
	if n := opInfo[op].name; n != "" {
		return n
	}
	return fmt.Sprintf("0x%02x", uint8(op))
}

// Defined reports whether the JVM defines op in class files.
func (op Opcode) Defined() bool { return opInfo[op].name != "" }

// IsReturn reports whether op is one of ireturn..return.
func (op Opcode) IsReturn() bool { return op >= IRETURN && op <= RETURN }

// IsBranch reports whether op carries one branch target (conditional or not).
func (op Opcode) IsBranch() bool {
	k := opInfo[op].kind
	return k == opBranch2 || k == opBranch4
}

// Opcode values used by name elsewhere in the project. The full table of
// mnemonics and operand shapes is opInfo below.
const (
	NOP             = 0x00
	ACONST_NULL     = 0x01
	ICONST_M1       = 0x02
	ICONST_0        = 0x03
	ICONST_5        = 0x08
	BIPUSH          = 0x10
	SIPUSH          = 0x11
	LDC             = 0x12
	LDC_W           = 0x13
	LDC2_W          = 0x14
	ILOAD           = 0x15
	ILOAD_1         = 0x1b
	ALOAD           = 0x19
	ALOAD_0         = 0x2a
	ALOAD_3         = 0x2d
	SALOAD          = 0x35
	ISTORE          = 0x36
	ASTORE          = 0x3a
	ISTORE_0        = 0x3b
	ASTORE_3        = 0x4e
	POP             = 0x57
	DUP             = 0x59
	SWAP            = 0x5f
	IINC            = 0x84
	IFEQ            = 0x99
	GOTO            = 0xa7
	JSR             = 0xa8
	RET             = 0xa9
	TABLESWITCH     = 0xaa
	LOOKUPSWITCH    = 0xab
	IRETURN         = 0xac
	RETURN          = 0xb1
	GETSTATIC       = 0xb2
	PUTSTATIC       = 0xb3
	GETFIELD        = 0xb4
	PUTFIELD        = 0xb5
	INVOKEVIRTUAL   = 0xb6
	INVOKESPECIAL   = 0xb7
	INVOKESTATIC    = 0xb8
	INVOKEINTERFACE = 0xb9
	INVOKEDYNAMIC   = 0xba
	NEW             = 0xbb
	NEWARRAY        = 0xbc
	ANEWARRAY       = 0xbd
	ATHROW          = 0xbf
	CHECKCAST       = 0xc0
	INSTANCEOF      = 0xc1
	WIDE            = 0xc4
	MULTIANEWARRAY  = 0xc5
	IFNULL          = 0xc6
	IFNONNULL       = 0xc7
	GOTO_W          = 0xc8
	JSR_W           = 0xc9
)

// operandKind says how an opcode's operands are laid out.
type operandKind uint8

const (
	opInvalid         operandKind = iota
	opNone                        // no operands
	opLocal                       // u1 local index (u2 after wide)
	opByte                        // s1 (bipush)
	opShort                       // s2 (sipush)
	opCP1                         // u1 constant-pool index (ldc)
	opCP2                         // u2 constant-pool index
	opAType                       // u1 array type (newarray)
	opIinc                        // u1 local, s1 delta (u2, s2 after wide)
	opBranch2                     // s2 branch offset
	opBranch4                     // s4 branch offset
	opTableSwitch                 // padding, default, low, high, offsets
	opLookupSwitch                // padding, default, npairs, pairs
	opInvokeInterface             // u2 cp, u1 count, u1 zero
	opInvokeDynamic               // u2 cp, u1 zero, u1 zero
	opMultiANewArray              // u2 cp, u1 dimensions
	opWide                        // prefix
)

type opcodeInfo struct {
	name string
	kind operandKind
}

var opInfo [256]opcodeInfo

// opKind is opInfo's kind column on its own: the hot loops read only this,
// and 256 bytes stay in cache where the full table does not.
var opKind [256]operandKind

// fixedSize is the encoded size of each opcode whose size and operand
// checks depend on the opcode alone, 0 for the rest (wide, switches,
// invokeinterface/invokedynamic with their zero bytes, invalid opcodes).
// Decoding takes its fast path from it.
var fixedSize [256]uint8

func init() {
	set := func(kind operandKind, first int, names ...string) {
		for i, n := range names {
			opInfo[first+i] = opcodeInfo{n, kind}
		}
	}
	set(opNone, 0x00, "nop", "aconst_null", "iconst_m1", "iconst_0", "iconst_1", "iconst_2",
		"iconst_3", "iconst_4", "iconst_5", "lconst_0", "lconst_1", "fconst_0", "fconst_1",
		"fconst_2", "dconst_0", "dconst_1")
	set(opByte, 0x10, "bipush")
	set(opShort, 0x11, "sipush")
	set(opCP1, 0x12, "ldc")
	set(opCP2, 0x13, "ldc_w", "ldc2_w")
	set(opLocal, 0x15, "iload", "lload", "fload", "dload", "aload")
	set(opNone, 0x1a, "iload_0", "iload_1", "iload_2", "iload_3", "lload_0", "lload_1",
		"lload_2", "lload_3", "fload_0", "fload_1", "fload_2", "fload_3", "dload_0", "dload_1",
		"dload_2", "dload_3", "aload_0", "aload_1", "aload_2", "aload_3", "iaload", "laload",
		"faload", "daload", "aaload", "baload", "caload", "saload")
	set(opLocal, 0x36, "istore", "lstore", "fstore", "dstore", "astore")
	set(opNone, 0x3b, "istore_0", "istore_1", "istore_2", "istore_3", "lstore_0", "lstore_1",
		"lstore_2", "lstore_3", "fstore_0", "fstore_1", "fstore_2", "fstore_3", "dstore_0",
		"dstore_1", "dstore_2", "dstore_3", "astore_0", "astore_1", "astore_2", "astore_3",
		"iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore", "sastore",
		"pop", "pop2", "dup", "dup_x1", "dup_x2", "dup2", "dup2_x1", "dup2_x2", "swap",
		"iadd", "ladd", "fadd", "dadd", "isub", "lsub", "fsub", "dsub", "imul", "lmul", "fmul",
		"dmul", "idiv", "ldiv", "fdiv", "ddiv", "irem", "lrem", "frem", "drem", "ineg", "lneg",
		"fneg", "dneg", "ishl", "lshl", "ishr", "lshr", "iushr", "lushr", "iand", "land", "ior",
		"lor", "ixor", "lxor")
	set(opIinc, 0x84, "iinc")
	set(opNone, 0x85, "i2l", "i2f", "i2d", "l2i", "l2f", "l2d", "f2i", "f2l", "f2d", "d2i",
		"d2l", "d2f", "i2b", "i2c", "i2s", "lcmp", "fcmpl", "fcmpg", "dcmpl", "dcmpg")
	set(opBranch2, 0x99, "ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle", "if_icmpeq",
		"if_icmpne", "if_icmplt", "if_icmpge", "if_icmpgt", "if_icmple", "if_acmpeq",
		"if_acmpne", "goto", "jsr")
	set(opLocal, 0xa9, "ret")
	set(opTableSwitch, 0xaa, "tableswitch")
	set(opLookupSwitch, 0xab, "lookupswitch")
	set(opNone, 0xac, "ireturn", "lreturn", "freturn", "dreturn", "areturn", "return")
	set(opCP2, 0xb2, "getstatic", "putstatic", "getfield", "putfield", "invokevirtual",
		"invokespecial", "invokestatic")
	set(opInvokeInterface, 0xb9, "invokeinterface")
	set(opInvokeDynamic, 0xba, "invokedynamic")
	set(opCP2, 0xbb, "new")
	set(opAType, 0xbc, "newarray")
	set(opCP2, 0xbd, "anewarray")
	set(opNone, 0xbe, "arraylength", "athrow")
	set(opCP2, 0xc0, "checkcast", "instanceof")
	set(opNone, 0xc2, "monitorenter", "monitorexit")
	set(opWide, 0xc4, "wide")
	set(opMultiANewArray, 0xc5, "multianewarray")
	set(opBranch2, 0xc6, "ifnull", "ifnonnull")
	set(opBranch4, 0xc8, "goto_w", "jsr_w")
	for op := range opInfo {
		opKind[op] = opInfo[op].kind
		if k := opInfo[op].kind; k != opInvokeInterface && k != opInvokeDynamic {
			fixedSize[op] = kindSize[k]
		}
	}
	// Derived tables are filled here, after opInfo: package variables are
	// initialised before any init function runs.
	initLayoutTables()
	initDecodeTables()
	initStackEffects()
}

// kindSize is the size of an instruction of each operand kind without a
// wide prefix or widened operands; 0 where the size varies.
var kindSize = [...]uint8{
	opNone: 1, opLocal: 2, opByte: 2, opCP1: 2, opAType: 2,
	opShort: 3, opCP2: 3, opIinc: 3, opBranch2: 3,
	opMultiANewArray: 4, opBranch4: 5, opInvokeInterface: 5, opInvokeDynamic: 5,
	opInvalid: 0, opWide: 0, opTableSwitch: 0, opLookupSwitch: 0,
}

// AppendOpcodes appends the opcode of every instruction in a raw code
// array (the `wide` prefix folded into the opcode it modifies) to dst. It
// checks instruction boundaries but, unlike DecodeCode, builds nothing else,
// so deciding whether a method is worth tracing stays cheap.
func AppendOpcodes(dst []byte, code []byte) ([]byte, error) {
	for off := 0; off < len(code); {
		op := code[off]
		size := 0
		switch opInfo[op].kind {
		case opInvalid:
			return dst, formatErr("code", off, "unknown opcode 0x%02X", op)
		case opWide:
			if off+1 >= len(code) {
				return dst, formatErr("code", off, "wide truncated")
			}
			op = code[off+1]
			switch opInfo[op].kind {
			case opLocal:
				size = 4
			case opIinc:
				size = 6
			default:
				return dst, formatErr("code", off, "wide applied to 0x%02X", op)
			}
		case opTableSwitch, opLookupSwitch:
			p := off + 1 + padding(off)
			if p+switchHeader(op) > len(code) {
				return dst, formatErr("code", off, "%s truncated", opInfo[op].name)
			}
			if op == TABLESWITCH {
				lo := int64(int32(binary.BigEndian.Uint32(code[p+4:])))
				hi := int64(int32(binary.BigEndian.Uint32(code[p+8:])))
				if lo > hi {
					return dst, formatErr("code", off, "tableswitch low > high")
				}
				size = int(int64(p+12-off) + 4*(hi-lo+1))
			} else {
				n := int64(int32(binary.BigEndian.Uint32(code[p+4:])))
				if n < 0 {
					return dst, formatErr("code", off, "lookupswitch with %d pairs", n)
				}
				size = int(int64(p+8-off) + 8*n)
			}
		default:
			size = insnSize(&Insn{Op: Opcode(op)}, nil, off)
		}
		if off+size > len(code) || size <= 0 {
			return dst, formatErr("code", off, "%s truncated", opName(op))
		}
		dst = append(dst, op)
		off += size
	}
	return dst, nil
}

// CodeBytes returns the code array of a raw Code attribute body.
func CodeBytes(codeAttr []byte) ([]byte, error) {
	if len(codeAttr) < 8 {
		return nil, formatErr("Code", 0, "truncated header")
	}
	n := binary.BigEndian.Uint32(codeAttr[4:])
	if uint64(n) > uint64(len(codeAttr)-8) {
		return nil, formatErr("Code", 4, "code_length %d exceeds the attribute", n)
	}
	return codeAttr[8 : 8+n], nil
}
