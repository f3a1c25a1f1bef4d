// Package classfile reads and writes JVM class files losslessly, and owns
// the instruction vocabulary of the project.
//
// A Class keeps its constant pool and attributes as bytes: what is not
// changed is written back byte for byte. Method code decodes into a Code of
// Insn values whose branch targets are Labels (as ASM models it), with
// exception handlers and StackMapTable frames bound to the same labels;
// offsets, wide forms and frame deltas are worked out only when the code is
// encoded again. The constant pool grows with AddClass, AddMethodref and
// friends, and says when it is full (ErrPoolFull) instead of overflowing.
//
// The vocabulary: Opcode (mnemonic, operand layout, branch and return
// tests, stack effect), the descriptor slot counters (MethodSlots,
// FieldSlots), verification types, and the Disassembler that prints code
// javap-style. Every other package asks here instead of keeping a table.
//
// It knows nothing of tracing, jars, files or caches.
package classfile
