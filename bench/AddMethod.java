import java.nio.file.Files;
import java.nio.file.Paths;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * AddMethod IN OUT: writes the class file IN with one more method, a static
 * int tracebeatBenchAdded(int) that does some arithmetic (so it is traced),
 * to OUT. bench/incremental.sh --add-method uses it for a change that
 * alters the method map, where the default change only alters bodies.
 */
public class AddMethod {
    public static void main(String[] args) throws Exception {
        ClassReader reader = new ClassReader(Files.readAllBytes(Paths.get(args[0])));
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visitEnd() {
                MethodVisitor mv = cv.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC,
                        "tracebeatBenchAdded", "(I)I", null, null);
                mv.visitCode();
                mv.visitVarInsn(Opcodes.ILOAD, 0);
                mv.visitInsn(Opcodes.ICONST_3);
                mv.visitInsn(Opcodes.IMUL);
                mv.visitVarInsn(Opcodes.ILOAD, 0);
                mv.visitInsn(Opcodes.IADD);
                mv.visitInsn(Opcodes.IRETURN);
                mv.visitMaxs(2, 1);
                mv.visitEnd();
                super.visitEnd();
            }
        }, 0);
        Files.write(Paths.get(args[1]), writer.toByteArray());
    }
}
