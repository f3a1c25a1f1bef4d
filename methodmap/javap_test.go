package methodmap

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// This file turns javac output into MethodInfo values without the class-file
// package: javap is an independent reader, so the rule tests check Classify
// against what javac really emits.

// jvmMnemonics lists the JVM opcodes 0x00..0xc9 by mnemonic, in opcode order
// (JVM spec, chapter 7).
const jvmMnemonics = `nop aconst_null iconst_m1 iconst_0 iconst_1 iconst_2 iconst_3 iconst_4 iconst_5
lconst_0 lconst_1 fconst_0 fconst_1 fconst_2 dconst_0 dconst_1 bipush sipush ldc ldc_w ldc2_w
iload lload fload dload aload iload_0 iload_1 iload_2 iload_3 lload_0 lload_1 lload_2 lload_3
fload_0 fload_1 fload_2 fload_3 dload_0 dload_1 dload_2 dload_3 aload_0 aload_1 aload_2 aload_3
iaload laload faload daload aaload baload caload saload
istore lstore fstore dstore astore istore_0 istore_1 istore_2 istore_3 lstore_0 lstore_1 lstore_2
lstore_3 fstore_0 fstore_1 fstore_2 fstore_3 dstore_0 dstore_1 dstore_2 dstore_3 astore_0 astore_1
astore_2 astore_3 iastore lastore fastore dastore aastore bastore castore sastore
pop pop2 dup dup_x1 dup_x2 dup2 dup2_x1 dup2_x2 swap
iadd ladd fadd dadd isub lsub fsub dsub imul lmul fmul dmul idiv ldiv fdiv ddiv irem lrem frem drem
ineg lneg fneg dneg ishl lshl ishr lshr iushr lushr iand land ior lor ixor lxor iinc
i2l i2f i2d l2i l2f l2d f2i f2l f2d d2i d2l d2f i2b i2c i2s lcmp fcmpl fcmpg dcmpl dcmpg
ifeq ifne iflt ifge ifgt ifle if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple
if_acmpeq if_acmpne goto jsr ret tableswitch lookupswitch
ireturn lreturn freturn dreturn areturn return getstatic putstatic getfield putfield
invokevirtual invokespecial invokestatic invokeinterface invokedynamic new newarray anewarray
arraylength athrow checkcast instanceof monitorenter monitorexit wide multianewarray
ifnull ifnonnull goto_w jsr_w`

func opcodeByMnemonic(t *testing.T) map[string]byte {
	t.Helper()
	names := strings.Fields(jvmMnemonics)
	if len(names) != 0xca {
		t.Fatalf("mnemonic table has %d entries, want %d", len(names), 0xca)
	}
	m := make(map[string]byte, len(names))
	for i, n := range names {
		m[n] = byte(i)
	}
	return m
}

// javapMethod is one method as javap -v -p shows it.
type javapMethod struct {
	Key  MethodKey
	Info MethodInfo
}

// compileFixture compiles the Java sources with javac into a temporary
// directory and returns every method of every class, read back with javap.
// It skips the test when no JDK is installed.
func compileFixture(t *testing.T, sources ...string) []javapMethod {
	t.Helper()
	for _, tool := range []string{"javac", "javap"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH: %v", tool, err)
		}
	}
	out := t.TempDir()
	args := append([]string{"-d", out}, sources...)
	if b, err := exec.Command("javac", args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	var classes []string
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".class") {
			classes = append(classes, p)
		}
		return err
	})
	if err != nil || len(classes) == 0 {
		t.Fatalf("no class files in %s: %v", out, err)
	}
	b, err := exec.Command("javap", append([]string{"-v", "-p"}, classes...)...).Output()
	if err != nil {
		t.Fatalf("javap: %v", err)
	}
	ms, err := parseJavap(string(b), opcodeByMnemonic(t))
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

var (
	javapInsn      = regexp.MustCompile(`^\s+\d+: ([a-z][a-z0-9_]*)`)
	javapFlags     = regexp.MustCompile(`flags: \(0x([0-9a-f]{4})\)`)
	javapThisClass = regexp.MustCompile(`^  this_class: #\d+\s+// (\S+)$`)
)

func parseJavap(text string, opcodes map[string]byte) ([]javapMethod, error) {
	var (
		ms          []javapMethod
		class       string
		classAccess uint16
		cur         *javapMethod // method being read
		isMethod    bool
	)
	flush := func() {
		if cur != nil && isMethod {
			ms = append(ms, *cur)
		}
		cur, isMethod = nil, false
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Classfile "):
			flush()
			class, classAccess = "", 0
		case javapThisClass.MatchString(line):
			class = javapThisClass.FindStringSubmatch(line)[1]
		case strings.HasPrefix(line, "  flags: "): // the class's flags
			v, err := parseFlags(line)
			if err != nil {
				return nil, err
			}
			classAccess = v
		case len(line) > 2 && line[:2] == "  " && line[2] != ' ' && strings.HasSuffix(line, ";") && class != "":
			// a member declaration such as "  int getX();" or "  static {};"
			flush()
			cur = &javapMethod{Key: MethodKey{Class: class, Name: memberName(line, class)}}
			cur.Info.ClassAccess = classAccess
			cur.Info.Name = cur.Key.Name
		case cur != nil && strings.HasPrefix(line, "    descriptor: "):
			cur.Key.Desc = strings.TrimPrefix(line, "    descriptor: ")
			cur.Info.Desc = cur.Key.Desc
			isMethod = strings.HasPrefix(cur.Key.Desc, "(")
		case cur != nil && strings.HasPrefix(line, "    flags: "):
			v, err := parseFlags(line)
			if err != nil {
				return nil, err
			}
			cur.Info.Access = v
		case cur != nil && line == "    Code:":
			cur.Info.Opcodes = []byte{}
		case cur != nil && cur.Info.Opcodes != nil && javapInsn.MatchString(line):
			name := javapInsn.FindStringSubmatch(line)[1]
			op, ok := opcodes[name]
			if !ok {
				return nil, fmt.Errorf("javap: unknown mnemonic %q in %q", name, line)
			}
			cur.Info.Opcodes = append(cur.Info.Opcodes, op)
		case line == "}":
			flush()
		}
	}
	flush()
	return ms, sc.Err()
}

func parseFlags(line string) (uint16, error) {
	m := javapFlags.FindStringSubmatch(line)
	if m == nil {
		return 0, fmt.Errorf("javap: no flags in %q", line)
	}
	v, err := strconv.ParseUint(m[1], 16, 16)
	return uint16(v), err
}

// memberName recovers the JVM name from javap's Java-like declaration.
func memberName(decl, class string) string {
	decl = strings.TrimSpace(decl)
	if decl == "static {};" {
		return "<clinit>"
	}
	before, _, ok := strings.Cut(decl, "(")
	if !ok {
		return "" // a field; dropped once its descriptor is seen
	}
	name := before[strings.LastIndexByte(before, ' ')+1:]
	if name == dotted(class) {
		return "<init>"
	}
	return name
}
