package blacklist

import (
	"fmt"
	"strings"
	"unicode"
)

// The directives of btrace 2's filter files (ByteDance's successor of
// Matrix's trace plugin), read beside Matrix's -keepclass/-keeppackage.
// Their names and meanings follow btrace; where btrace matches by string
// prefix, whole package and class names match here, as for Matrix's.
//
//	-allowpackage a.b            only classes in allow packages are traced
//	-blockpackage a.b            no class in a.b (or below) is traced
//	-blockclassmethods a.b.C {   the named methods of C are not traced
//	    run(int, java.lang.String[]);
//	}
//	-traceclass a.b.C            C's methods are traced although Matrix's
//	                             method rules (empty, getter/setter,
//	                             single, abstract class) would skip them
//	-traceclassmethods a.b.C {   the named methods are traced, even in a
//	    run(int);                blocked class or outside the allow list
//	}
//	-tracemethodannotation a.b.Traced   methods annotated @Traced are
//	                             traced as with -traceclass
//
// Precedence (README, "Block lists"): the built-in rules always win; then
// a -traceclassmethods line that names the exact method; then blocking
// (-keepclass, -keeppackage, -blockpackage, -blockclassmethods, outside
// every -allowpackage); then -traceclass and -tracemethodannotation; then
// Matrix's method rules.

// dotted is an internal name as btrace's files write it.
func dotted(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

// methodBlock is a "-blockclassmethods C {" or "-traceclassmethods C {"
// whose method lines are being read.
type methodBlock struct {
	kind  Kind
	class string
	line  int
	open  bool // the '{' was seen
	// inline holds what followed the '{' on the directive's own line,
	// split at each ';': the methods (and the '}') of a block written on
	// one line, as Rule.Directive writes it.
	inline []string
}

// parseBlockStart reads "-blockclassmethods C [{ [m(); ...] [}]]".
func parseBlockStart(kind Kind, directive string, fields []string) (*methodBlock, error) {
	text := strings.Join(fields[1:], " ")
	rest, after, open := strings.Cut(text, "{")
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.ContainsAny(rest, " \t") {
		return nil, fmt.Errorf("%s wants one class name and '{', got %q", directive, text)
	}
	class, err := normalizeClass(rest)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", directive, err)
	}
	return &methodBlock{kind: kind, class: class, open: open, inline: blockPieces(after)}, nil
}

// blockPieces splits a line inside a method block into what the block
// reads one at a time: each method (up to its ';') and a '}', so that
// "run(); stop(); }" is two methods and the end. A comment stays whole.
func blockPieces(line string) []string {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return []string{line}
	}
	var out []string
	for _, piece := range strings.SplitAfter(line, ";") {
		piece = strings.TrimSpace(piece)
		for piece != "" {
			// A '}' ends the block wherever it stands: what follows it
			// is a piece of its own, which the caller refuses.
			i := strings.IndexByte(piece, '}')
			if i < 0 {
				out = append(out, piece)
				break
			}
			if head := strings.TrimSpace(piece[:i]); head != "" {
				out = append(out, head)
			}
			out = append(out, "}")
			piece = strings.TrimSpace(piece[i+1:])
		}
	}
	return out
}

// next reads one line inside the block: a method line gives its rule
// (ok), "}" ends the block (done).
func (b *methodBlock) next(line string) (rule Rule, ok, done bool, err error) {
	line = strings.TrimSpace(line)
	switch {
	case line == "" || line[0] == '#':
		return Rule{}, false, false, nil
	case !b.open:
		if line != "{" {
			return Rule{}, false, true, fmt.Errorf("want '{' after the class of a method block, got %q", line)
		}
		b.open = true
		return Rule{}, false, false, nil
	case line == "}":
		return Rule{}, false, true, nil
	}
	name, params, err := parseMethodLine(line)
	if err != nil {
		return Rule{}, false, false, err
	}
	return Rule{Kind: b.kind, Name: b.class, Method: name, Params: params}, true, false, nil
}

// parseMethodLine reads "name(type, type[]);" inside a block: the method
// name and its parameters as a descriptor, "(I[Ljava/lang/String;)".
func parseMethodLine(line string) (name, params string, err error) {
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ";"))
	lp, rp := strings.IndexByte(line, '('), strings.LastIndexByte(line, ')')
	if lp <= 0 || rp < lp || rp != len(line)-1 {
		return "", "", fmt.Errorf("want a method as name(type, ...); got %q", line)
	}
	name = strings.TrimSpace(line[:lp])
	if strings.ContainsAny(name, "./;[<>(){},") || strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "", "", fmt.Errorf("bad method name %q", name)
	}
	var b strings.Builder
	b.WriteByte('(')
	if inner := strings.TrimSpace(line[lp+1 : rp]); inner != "" {
		for _, p := range strings.Split(inner, ",") {
			d, err := javaTypeDescriptor(strings.TrimSpace(p))
			if err != nil {
				return "", "", err
			}
			b.WriteString(d)
		}
	}
	b.WriteByte(')')
	return name, b.String(), nil
}

// javaTypeDescriptor turns a Java source type (int, java.lang.String[],
// a.b.C...) into its descriptor.
func javaTypeDescriptor(t string) (string, error) {
	if t == "" {
		return "", fmt.Errorf("empty parameter type")
	}
	dims := ""
	if strings.HasSuffix(t, "...") {
		t, dims = strings.TrimSpace(strings.TrimSuffix(t, "...")), "["
	}
	for strings.HasSuffix(t, "[]") {
		t, dims = strings.TrimSpace(strings.TrimSuffix(t, "[]")), dims+"["
	}
	prim := map[string]string{"boolean": "Z", "char": "C", "byte": "B", "short": "S", "int": "I",
		"float": "F", "long": "J", "double": "D"}
	if d, ok := prim[t]; ok {
		return dims + d, nil
	}
	if strings.ContainsFunc(t, unicode.IsSpace) {
		return "", fmt.Errorf("parameter type %q: blanks inside a name", t)
	}
	class, err := normalizeClass(t)
	if err != nil {
		return "", fmt.Errorf("parameter type: %w", err)
	}
	return dims + "L" + class + ";", nil
}

// javaParams writes a parameter descriptor "(I[Ljava/lang/String;)" as
// Java source types: "(int, java.lang.String[])".
func javaParams(desc string) string {
	names := map[byte]string{'Z': "boolean", 'C': "char", 'B': "byte", 'S': "short", 'I': "int",
		'F': "float", 'J': "long", 'D': "double"}
	var out []string
	for i := 1; i < len(desc) && desc[i] != ')'; {
		dims := 0
		for desc[i] == '[' {
			dims, i = dims+1, i+1
		}
		var t string
		if desc[i] == 'L' {
			end := strings.IndexByte(desc[i:], ';')
			t, i = dotted(desc[i+1:i+end]), i+end+1
		} else {
			t, i = names[desc[i]], i+1
		}
		out = append(out, t+strings.Repeat("[]", dims))
	}
	return "(" + strings.Join(out, ", ") + ")"
}

// methodKey is a class and one of its methods (name and parameter
// descriptor) as a -blockclassmethods or -traceclassmethods line names it.
type methodKey struct{ class, name, params string }

// Allowed reports whether origClass may be traced under the allow list:
// true when there is no -allowpackage, or when the class lies in one of
// the allow packages or below; the matching rule is returned.
func (l *List) Allowed(origClass string) (Rule, bool) {
	if len(l.allow) == 0 {
		return Rule{}, true
	}
	for _, ref := range l.allow {
		r := l.rules[ref-1]
		if strings.HasPrefix(origClass, r.Name+"/") {
			return r, true
		}
	}
	return Rule{}, false
}

// HasAllowList reports whether any -allowpackage was given.
func (l *List) HasAllowList() bool { return len(l.allow) > 0 }

// BlockedMethod returns the -blockclassmethods line that names the method.
func (l *List) BlockedMethod(origClass, name, desc string) (Rule, bool) {
	return l.methodRule(l.blockMethods, origClass, name, desc)
}

// ForcedMethod returns the -traceclassmethods line that names the method.
func (l *List) ForcedMethod(origClass, name, desc string) (Rule, bool) {
	return l.methodRule(l.traceMethods, origClass, name, desc)
}

// ForcesMethodsOf reports whether a -traceclassmethods block names
// methods of origClass: its class-level blocks then leave the choice to
// each method.
func (l *List) ForcesMethodsOf(origClass string) bool { return l.forcedClasses[origClass] }

func (l *List) methodRule(rules map[methodKey]int, class, name, desc string) (Rule, bool) {
	params := desc
	if i := strings.IndexByte(desc, ')'); i >= 0 {
		params = desc[:i+1]
	}
	if ref := rules[methodKey{class, name, params}]; ref != 0 {
		return l.rules[ref-1], true
	}
	return Rule{}, false
}

// TracedClass returns the -traceclass rule for origClass or an enclosing
// class of it.
func (l *List) TracedClass(origClass string) (Rule, bool) {
	for name := origClass; name != ""; {
		if ref := l.traceClasses[name]; ref != 0 {
			return l.rules[ref-1], true
		}
		i := strings.LastIndexByte(name, '$')
		if i <= strings.LastIndexByte(name, '/')+1 {
			break
		}
		name = name[:i]
	}
	return Rule{}, false
}

// TracedAnnotation returns the -tracemethodannotation rule for the first
// of the annotation descriptors ("La/b/Traced;") it names.
func (l *List) TracedAnnotation(descs []string) (Rule, bool) {
	for _, d := range descs {
		if len(d) > 2 && d[0] == 'L' && d[len(d)-1] == ';' {
			if ref := l.traceAnnotations[d[1:len(d)-1]]; ref != 0 {
				return l.rules[ref-1], true
			}
		}
	}
	return Rule{}, false
}

// WantsAnnotations reports whether any rule looks at annotations.
func (l *List) WantsAnnotations() bool { return len(l.traceAnnotations) > 0 }
