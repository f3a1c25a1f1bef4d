package mapping

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzParse: every ProGuard/R8 mapping.txt a user hands us (--mapping) is
// refused with an error naming the file and line, or reads to a mapping
// that, written back in the format (writeMapping, which knows only the
// format, not the parser), reads to the same classes, methods, residual
// signatures and map version. Seeded from the mappings in testdata.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n" +
		"com.example.Foo -> a.a:\n    int count -> a\n    1:4:void run(int,java.lang.String[]):10:13 -> b\n" +
		"    5:5:void com.example.Bar.inlined():20:20 -> c\n    5:5:long run():30 -> c\n" +
		"    # {\"id\":\"com.android.tools.r8.residualsignature\",\"signature\":\"(I)V\"}\n" +
		"com.example.Bar -> a.b:\n    com.example.Foo make(com.example.Bar) -> a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(bytes.NewReader(data), "mapping.txt", nil)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mapping.txt:") {
				t.Fatalf("the error does not name the file and line: %v", err)
			}
			return
		}
		text := writeMapping(m)
		again, err := Parse(strings.NewReader(text), "again.txt", nil)
		if err != nil {
			t.Fatalf("the written mapping does not read: %v\n%s", err, text)
		}
		if want, got := summarize(m), summarize(again); want != got {
			t.Fatalf("a mapping changed through a write:\nwant %s\ngot  %s\ntext:\n%s", want, got, text)
		}
	})
}

// writeMapping writes m in the mapping format: the version's metadata
// line, then each class line with its methods, each
// followed by its residual signature where it has one.
func writeMapping(m *Mapping) string {
	var b strings.Builder
	if m.version != "" {
		b.WriteString(`# {"id":"` + idMapVersion + `","version":` + jsonString(m.version) + "}\n")
	}
	classes := make([]*class, 0, len(m.byOrig))
	for _, c := range m.byOrig {
		classes = append(classes, c)
	}
	slices.SortFunc(classes, func(a, b *class) int { return cmp.Compare(a.line, b.line) })
	for _, c := range classes {
		b.WriteString(dotted(c.orig) + " -> " + dotted(c.obf) + ":\n")
		for i, mt := range c.methods {
			// A line range of its own for each line: a return type may
			// start with a digit (the JVM allows such class names), which
			// without a range would read as one.
			params, ret := javaSignature(mt.orig.desc)
			n := strconv.Itoa(i + 1)
			b.WriteString("    " + n + ":" + n + ":" + ret + " " + mt.orig.name + "(" + params + ") -> " + mt.obf.name + "\n")
			if mt.residual != "" {
				b.WriteString(`    # {"id":"` + idResidualSignature + `","signature":` + jsonString(mt.residual) + "}\n")
			}
		}
	}
	return b.String()
}

// summarize lists what a mapping holds, in an order of its own.
func summarize(m *Mapping) string {
	var lines []string
	for _, c := range m.byOrig {
		lines = append(lines, "class "+c.orig+" "+c.obf)
		for _, mt := range c.methods {
			obfName, obfDesc, ok := m.ObfuscatedMethod(c.orig, mt.orig.name, mt.orig.desc)
			lines = append(lines, strings.Join([]string{"method", c.orig, mt.orig.name, mt.orig.desc, mt.obf.name, mt.residual, obfName, obfDesc, map[bool]string{true: "found"}[ok]}, " "))
		}
	}
	slices.Sort(lines)
	return "version " + m.version + "\n" + strings.Join(lines, "\n")
}

// jsonString quotes s as a JSON string, its bytes as they are (the
// metadata of a mapping is read byte for byte, valid UTF-8 or not, where
// encoding/json would replace what is not).
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, "\\u%04x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func dotted(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

// javaSignature turns a method descriptor into the Java types the format
// writes: "int,java.lang.String[]" and "void".
func javaSignature(desc string) (params, ret string) {
	end := strings.IndexByte(desc, ')')
	var ps []string
	for rest := desc[1:end]; rest != ""; {
		var t string
		t, rest = javaType(rest)
		ps = append(ps, t)
	}
	ret, _ = javaType(desc[end+1:])
	return strings.Join(ps, ","), ret
}

// javaType reads one field type off the front of a descriptor.
func javaType(desc string) (string, string) {
	dims := 0
	for desc[dims] == '[' {
		dims++
	}
	var base string
	rest := desc[dims+1:]
	switch desc[dims] {
	case 'L':
		semi := strings.IndexByte(desc, ';')
		base, rest = dotted(desc[dims+1:semi]), desc[semi+1:]
	default:
		base = map[byte]string{'Z': "boolean", 'B': "byte", 'C': "char", 'S': "short", 'I': "int",
			'J': "long", 'F': "float", 'D': "double", 'V': "void"}[desc[dims]]
	}
	return base + strings.Repeat("[]", dims), rest
}
