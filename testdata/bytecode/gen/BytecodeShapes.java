import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Writes class files with the bytecode shapes javac never emits, with
 * ASM, into the directory given as the only argument (package "shapes").
 * Every class must verify on HotSpot as written; the tests instrument them
 * and have HotSpot verify them again. Every public static (I)I method is
 * called by ShapeRunner, before and after instrumentation, with the same
 * results expected.
 *
 *   shapes/Switches  tableswitch and lookupswitch with 0, 1 and many
 *                    entries at each of the four padding offsets
 *   shapes/Wide      wide loads, stores and iinc; a local at index 65534
 *   shapes/Old49     class version 49 (no frames): jsr/ret, wide ret
 *   shapes/Old46     the same as class version 46 (Java 1.2)
 *   shapes/Indy      invokedynamic, also as the first instruction
 *   shapes/Branches  branches spanning about 32 KiB with returns inside;
 *                    goto_w
 *   shapes/Ctors     constructors javac cannot write: super() on two
 *                    paths, this(...) chosen by a switch, copies of the
 *                    uninitialized this, putfield before super()
 *   shapes/Misc      max_stack 0, a loop at offset 0, no return at all,
 *                    dead code, a handler covering the whole method,
 *                    long/double returns, synchronized
 */
public final class BytecodeShapes {
    private static File out;

    public static void main(String[] args) throws IOException {
        out = new File(args[0]);
        switches();
        wide();
        old(Opcodes.V1_5, "shapes/Old49");
        old(Opcodes.V1_2, "shapes/Old46");
        indy();
        branches();
        ctors();
        misc();
    }

    private static ClassWriter newClass(int version, String name, int flags) {
        ClassWriter cw = new ClassWriter(flags);
        cw.visit(version, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        return cw;
    }

    private static void write(ClassWriter cw, String name) throws IOException {
        cw.visitEnd();
        File f = new File(out, name + ".class");
        f.getParentFile().mkdirs();
        try (FileOutputStream o = new FileOutputStream(f)) {
            o.write(cw.toByteArray());
        }
    }

    private static MethodVisitor method(ClassWriter cw, String name, String desc) {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, name, desc, null, null);
        mv.visitCode();
        return mv;
    }

    private static void end(MethodVisitor mv) {
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static void push(MethodVisitor mv, int v) {
        if (v >= -1 && v <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + v);
        } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, v);
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.SIPUSH, v);
        } else {
            mv.visitLdcInsn(v);
        }
    }

    // ---- switches ----------------------------------------------------

    private static void switches() throws IOException {
        ClassWriter cw = newClass(Opcodes.V1_8, "shapes/Switches", ClassWriter.COMPUTE_FRAMES);
        for (int pad = 0; pad < 4; pad++) {
            for (int n : new int[] {0, 1, 2, 23}) {
                lookup(cw, "lookup" + n + "_at" + (1 + pad), pad, n);
                if (n > 0) {
                    table(cw, "table" + n + "_at" + (1 + pad), pad, n);
                }
            }
        }
        write(cw, "shapes/Switches");
    }

    /**
     * iload_0, pad nops, then the switch: the opcode sits at offset 1+pad.
     * (A lookupswitch as the very last instruction is refused by HotSpot's
     * verifier, "Bad instruction", so no compiler emits one.)
     */
    private static void lookup(ClassWriter cw, String name, int pad, int n) {
        MethodVisitor mv = method(cw, name, "(I)I");
        Label dflt = new Label();
        int[] keys = new int[n];
        Label[] labels = new Label[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i * 7 - 5;
            labels[i] = new Label();
        }
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        for (int i = 0; i < pad; i++) mv.visitInsn(Opcodes.NOP);
        mv.visitLookupSwitchInsn(dflt, keys, labels);
        for (int i = 0; i < n; i++) {
            mv.visitLabel(labels[i]);
            push(mv, 1000 + i);
            mv.visitInsn(Opcodes.IRETURN);
        }
        mv.visitLabel(dflt);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.INEG);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
    }

    private static void table(ClassWriter cw, String name, int pad, int n) {
        MethodVisitor mv = method(cw, name, "(I)I");
        Label dflt = new Label();
        Label[] labels = new Label[n];
        for (int i = 0; i < n; i++) labels[i] = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        for (int i = 0; i < pad; i++) mv.visitInsn(Opcodes.NOP);
        mv.visitTableSwitchInsn(-1, n - 2, dflt, labels);
        for (int i = 0; i < n; i++) {
            mv.visitLabel(labels[i]);
            push(mv, 2000 + i);
            mv.visitInsn(Opcodes.IRETURN);
        }
        mv.visitLabel(dflt);
        push(mv, -2);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
    }

    // ---- wide --------------------------------------------------------

    private static void wide() throws IOException {
        ClassWriter cw = newClass(Opcodes.V1_8, "shapes/Wide", ClassWriter.COMPUTE_FRAMES);
        MethodVisitor mv = method(cw, "wideLocals", "(I)I");
        Label skip = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitVarInsn(Opcodes.ISTORE, 260);
        mv.visitIincInsn(260, 1000);
        mv.visitIincInsn(260, -3);
        mv.visitVarInsn(Opcodes.ILOAD, 260);
        mv.visitInsn(Opcodes.I2L);
        mv.visitVarInsn(Opcodes.LSTORE, 270);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.I2D);
        mv.visitVarInsn(Opcodes.DSTORE, 280);
        mv.visitLdcInsn("w");
        mv.visitVarInsn(Opcodes.ASTORE, 290);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IFLT, skip);
        mv.visitVarInsn(Opcodes.LLOAD, 270);
        mv.visitVarInsn(Opcodes.DLOAD, 280);
        mv.visitInsn(Opcodes.D2L);
        mv.visitInsn(Opcodes.LADD);
        mv.visitInsn(Opcodes.L2I);
        mv.visitVarInsn(Opcodes.ALOAD, 290);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "length", "()I", false);
        mv.visitInsn(Opcodes.IADD);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(skip);
        mv.visitVarInsn(Opcodes.ILOAD, 260);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);

        // The highest local index a method can have.
        mv = method(cw, "hugeLocals", "(I)I");
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitVarInsn(Opcodes.ISTORE, 65534);
        mv.visitIincInsn(65534, 7);
        mv.visitVarInsn(Opcodes.ILOAD, 65534);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
        write(cw, "shapes/Wide");
    }

    // ---- old class versions: jsr/ret ---------------------------------

    private static void old(int version, String name) throws IOException {
        ClassWriter cw = newClass(version, name, ClassWriter.COMPUTE_MAXS);
        // withJsr: x -> (x + 5) through a subroutine, twice called.
        MethodVisitor mv = method(cw, "withJsr", "(I)I");
        Label sub = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitJumpInsn(Opcodes.JSR, sub);
        mv.visitJumpInsn(Opcodes.JSR, sub);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(sub);
        mv.visitVarInsn(Opcodes.ASTORE, 2);
        mv.visitIincInsn(1, 5);
        mv.visitVarInsn(Opcodes.RET, 2);
        end(mv);

        // wideRet: the return address in local 300 (wide astore, wide ret).
        mv = method(cw, "wideRet", "(I)I");
        sub = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitJumpInsn(Opcodes.JSR, sub);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(sub);
        mv.visitVarInsn(Opcodes.ASTORE, 300);
        mv.visitIincInsn(1, 300);
        mv.visitVarInsn(Opcodes.RET, 300);
        end(mv);

        // finallyJsr: try { if x<0 throw } finally { counter } as old javac wrote it.
        mv = method(cw, "finallyJsr", "(I)I");
        Label start = new Label(), endTry = new Label(), handler = new Label(), fin = new Label(), ok = new Label();
        mv.visitTryCatchBlock(start, endTry, handler, null);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitLabel(start);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IFGE, ok);
        mv.visitTypeInsn(Opcodes.NEW, "java/lang/IllegalStateException");
        mv.visitInsn(Opcodes.DUP);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "()V", false);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitLabel(ok);
        mv.visitIincInsn(1, 10);
        mv.visitLabel(endTry);
        mv.visitJumpInsn(Opcodes.JSR, fin);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(handler);
        mv.visitVarInsn(Opcodes.ASTORE, 3);
        mv.visitJumpInsn(Opcodes.JSR, fin);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitLabel(fin);
        mv.visitVarInsn(Opcodes.ASTORE, 2);
        mv.visitIincInsn(1, 1);
        mv.visitVarInsn(Opcodes.RET, 2);
        end(mv);

        // A loop with a branch, no frames at all.
        mv = method(cw, "loop", "(I)I");
        Label top = new Label(), done = new Label();
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitLabel(top);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IFLE, done);
        mv.visitIincInsn(1, 3);
        mv.visitIincInsn(0, -1);
        mv.visitJumpInsn(Opcodes.GOTO, top);
        mv.visitLabel(done);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);

        ctor(cw);
        write(cw, name);
    }

    private static void ctor(ClassWriter cw) {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitInsn(Opcodes.RETURN);
        end(mv);
    }

    // ---- invokedynamic -----------------------------------------------

    private static void indy() throws IOException {
        ClassWriter cw = newClass(Opcodes.V11, "shapes/Indy", ClassWriter.COMPUTE_FRAMES);
        Handle concat = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/StringConcatFactory",
            "makeConcatWithConstants",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
                + "Ljava/lang/String;[Ljava/lang/Object;)Ljava/lang/invoke/CallSite;", false);
        // The invokedynamic is the first instruction: the entry call goes before it.
        MethodVisitor mv = method(cw, "concatFirst", "(I)I");
        mv.visitInvokeDynamicInsn("concat", "()Ljava/lang/String;", concat, "constant");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "length", "()I", false);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.IADD);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
        mv = method(cw, "concat", "(I)I");
        Label neg = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IFLT, neg);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInvokeDynamicInsn("concat", "(I)Ljava/lang/String;", concat, "x=\u0001!");
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/String", "length", "()I", false);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(neg);
        mv.visitInsn(Opcodes.ICONST_M1);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
        write(cw, "shapes/Indy");
    }

    // ---- branches near 32 KiB ----------------------------------------

    private static void branches() throws IOException {
        ClassWriter cw = newClass(Opcodes.V1_8, "shapes/Branches", ClassWriter.COMPUTE_FRAMES);
        // A backward conditional branch over a body holding 8 returns: each
        // gets an exit call, so the branch grows by 8 exit calls. The
        // spans step across the 32767-byte limit.
        for (int slack : new int[] {0, 8, 24, 40, 56, 80, 120}) {
            backward(cw, "backward" + slack, 32767 - 3 - slack);
            forward(cw, "forward" + slack, 32767 - 3 - slack);
        }
        // A forward jump of 40,000 bytes: ASM writes goto_w (and ifne over it).
        forward(cw, "gotoW", 40000);
        write(cw, "shapes/Branches");
    }

    /** Filler of about size bytes: iinc 1 1 (3 bytes) with 8 early returns (x == 1000+k). */
    private static void filler(MethodVisitor mv, int size) {
        int blocks = 8;
        int blockSize = 9; // iload_0 sipush ifne(3) iload_1 ireturn: 1+3+3+1+1
        int iincs = (size - blocks * blockSize) / 3;
        for (int i = 0; i < iincs; i++) {
            mv.visitIincInsn(1, 1);
            if (i % (iincs / blocks) == 0 && i / (iincs / blocks) < blocks) {
                Label skip = new Label();
                mv.visitVarInsn(Opcodes.ILOAD, 0);
                push(mv, 1000 + i / (iincs / blocks));
                mv.visitJumpInsn(Opcodes.IF_ICMPNE, skip);
                mv.visitVarInsn(Opcodes.ILOAD, 1);
                mv.visitInsn(Opcodes.IRETURN);
                mv.visitLabel(skip);
            }
        }
    }

    /** loop: body; if (--x > 0) goto loop; return counter. */
    private static void backward(ClassWriter cw, String name, int span) {
        MethodVisitor mv = method(cw, name, "(I)I");
        Label top = new Label();
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitLabel(top);
        filler(mv, span - 4);
        mv.visitIincInsn(0, -1);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IFGT, top);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
    }

    /** if (x == 5) goto far; body; far: return counter. */
    private static void forward(ClassWriter cw, String name, int span) {
        MethodVisitor mv = method(cw, name, "(I)I");
        Label far = new Label();
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitVarInsn(Opcodes.ISTORE, 1);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.ICONST_5);
        mv.visitJumpInsn(Opcodes.IF_ICMPEQ, far);
        filler(mv, span - 3);
        mv.visitLabel(far);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
    }

    // ---- constructors ------------------------------------------------

    private static void ctors() throws IOException {
        String self = "shapes/Ctors";
        ClassWriter cw = newClass(Opcodes.V1_8, self, ClassWriter.COMPUTE_FRAMES);
        cw.visitField(Opcodes.ACC_PUBLIC, "v", "I", null, null).visitEnd();

        // <init>(Z): super() on two paths.
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(Z)V", null, null);
        mv.visitCode();
        Label other = new Label(), joined = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitJumpInsn(Opcodes.IFEQ, other);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        push(mv, 11);
        mv.visitFieldInsn(Opcodes.PUTFIELD, self, "v", "I");
        mv.visitJumpInsn(Opcodes.GOTO, joined);
        mv.visitLabel(other);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        push(mv, 22);
        mv.visitFieldInsn(Opcodes.PUTFIELD, self, "v", "I");
        mv.visitLabel(joined);
        mv.visitInsn(Opcodes.RETURN);
        end(mv);

        // <init>(I): this(...) chosen by a tableswitch (Groovy's shape).
        mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(I)V", null, null);
        mv.visitCode();
        Label c0 = new Label(), c1 = new Label(), dflt = new Label(), done = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitTableSwitchInsn(0, 1, dflt, c0, c1);
        mv.visitLabel(c0);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ICONST_1);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, self, "<init>", "(Z)V", false);
        mv.visitJumpInsn(Opcodes.GOTO, done);
        mv.visitLabel(c1);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, self, "<init>", "(Z)V", false);
        mv.visitJumpInsn(Opcodes.GOTO, done);
        mv.visitLabel(dflt);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, self, "v", "I");
        mv.visitLabel(done);
        mv.visitInsn(Opcodes.RETURN);
        end(mv);

        // <init>(J): the uninitialized this copied into another local and
        // initialized through the copy (Kotlin's shape).
        mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(J)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ASTORE, 3);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.LLOAD, 1);
        mv.visitInsn(Opcodes.L2I);
        mv.visitFieldInsn(Opcodes.PUTFIELD, self, "v", "I");
        mv.visitInsn(Opcodes.RETURN);
        end(mv);

        // <init>(S): a field stored before super(), a new object built in
        // the arguments, and a branch before super().
        mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(S)V", null, null);
        mv.visitCode();
        Label pos = new Label();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitFieldInsn(Opcodes.PUTFIELD, self, "v", "I");
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitJumpInsn(Opcodes.IFGE, pos);
        mv.visitTypeInsn(Opcodes.NEW, "java/lang/StringBuilder");
        mv.visitInsn(Opcodes.DUP);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/StringBuilder", "<init>", "()V", false);
        mv.visitInsn(Opcodes.POP);
        mv.visitLabel(pos);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitInsn(Opcodes.RETURN);
        end(mv);

        // Static factories ShapeRunner calls.
        String[] descs = {"(Z)V", "(I)V", "(J)V", "(S)V"};
        String[] names = {"makeZ", "makeI", "makeJ", "makeS"};
        for (int k = 0; k < descs.length; k++) {
            mv = method(cw, names[k], "(I)I");
            mv.visitTypeInsn(Opcodes.NEW, self);
            mv.visitInsn(Opcodes.DUP);
            mv.visitVarInsn(Opcodes.ILOAD, 0);
            switch (k) {
                case 0:
                    mv.visitInsn(Opcodes.ICONST_1);
                    mv.visitInsn(Opcodes.IAND);
                    break;
                case 2:
                    mv.visitInsn(Opcodes.I2L);
                    break;
                case 3:
                    mv.visitInsn(Opcodes.I2S);
                    break;
                default:
            }
            mv.visitMethodInsn(Opcodes.INVOKESPECIAL, self, "<init>", descs[k], false);
            mv.visitFieldInsn(Opcodes.GETFIELD, self, "v", "I");
            mv.visitInsn(Opcodes.IRETURN);
            end(mv);
        }
        write(cw, self);
    }

    // ---- odds and ends -----------------------------------------------

    private static void misc() throws IOException {
        ClassWriter cw = newClass(Opcodes.V1_8, "shapes/Misc", ClassWriter.COMPUTE_FRAMES);
        // max_stack 0: return only.
        MethodVisitor mv = method(cw, "nothing", "()V");
        mv.visitInsn(Opcodes.RETURN);
        end(mv);

        // A loop whose head is offset 0: the back edge targets the first instruction.
        mv = method(cw, "loopAtZero", "(I)I");
        Label top = new Label(), done = new Label();
        mv.visitLabel(top);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        push(mv, 10);
        mv.visitJumpInsn(Opcodes.IF_ICMPGE, done);
        mv.visitIincInsn(0, 3);
        mv.visitJumpInsn(Opcodes.GOTO, top);
        mv.visitLabel(done);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);

        // No return: leaves only by throwing.
        mv = method(cw, "neverReturns", "(I)I");
        Label loop = new Label();
        mv.visitLabel(loop);
        mv.visitIincInsn(0, -1);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitJumpInsn(Opcodes.IFGE, loop);
        mv.visitTypeInsn(Opcodes.NEW, "java/lang/ArithmeticException");
        mv.visitInsn(Opcodes.DUP);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/ArithmeticException", "<init>", "()V", false);
        mv.visitInsn(Opcodes.ATHROW);
        end(mv);

        // Dead code after the return (ASM turns it into nop... athrow with a frame).
        mv = method(cw, "deadCode", "(I)I");
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.ICONST_2);
        mv.visitInsn(Opcodes.IMUL);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);

        // A handler covering the whole method, from offset 0, that returns.
        mv = method(cw, "handlerEverywhere", "(I)I");
        Label s = new Label(), e = new Label(), h = new Label();
        mv.visitTryCatchBlock(s, e, h, "java/lang/ArithmeticException");
        mv.visitLabel(s);
        push(mv, 100);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.IDIV);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(e);
        mv.visitLabel(h);
        mv.visitInsn(Opcodes.POP);
        mv.visitInsn(Opcodes.ICONST_M1);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);

        // long and double returns, and a synchronized static method.
        mv = method(cw, "longs", "(J)J");
        mv.visitVarInsn(Opcodes.LLOAD, 0);
        mv.visitInsn(Opcodes.LCONST_1);
        mv.visitInsn(Opcodes.LADD);
        mv.visitInsn(Opcodes.LRETURN);
        end(mv);
        mv = method(cw, "doubles", "(D)D");
        mv.visitVarInsn(Opcodes.DLOAD, 0);
        mv.visitInsn(Opcodes.DNEG);
        mv.visitInsn(Opcodes.DRETURN);
        end(mv);
        mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_SYNCHRONIZED, "locked", "(I)I", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitInsn(Opcodes.I2L);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, "shapes/Misc", "longs", "(J)J", false);
        mv.visitInsn(Opcodes.L2I);
        mv.visitInsn(Opcodes.IRETURN);
        end(mv);
        write(cw, "shapes/Misc");
    }
}
