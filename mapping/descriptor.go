package mapping

import "strings"

// RemapDescriptor returns desc with every class name in it (each "Lx/y/Z;")
// replaced by mapClass(name). It works for field and method descriptors and
// for array class names like "[Lx/y/Z;". A descriptor that is cut short is
// copied unchanged from the point where it stops making sense; the function
// never fails because it is used on names read from arbitrary class files.
func RemapDescriptor(desc string, mapClass func(string) string) string {
	var out []byte // nil until something actually changes
	copied := 0    // desc[:copied] is already in out
	for i := 0; i < len(desc); i++ {
		if desc[i] != 'L' {
			continue
		}
		// An 'L' at a type position starts a class name that runs to ';'.
		// Skipping the whole name keeps 'L's inside names from being
		// mistaken for type tags.
		end := strings.IndexByte(desc[i+1:], ';')
		if end < 0 {
			break
		}
		name := desc[i+1 : i+1+end]
		mapped := mapClass(name)
		if mapped != name {
			if out == nil {
				out = make([]byte, 0, len(desc)+16)
			}
			out = append(out, desc[copied:i+1]...)
			out = append(out, mapped...)
			copied = i + 1 + end
		}
		i += end + 1 // now at ';'
	}
	if out == nil {
		return desc
	}
	out = append(out, desc[copied:]...)
	return string(out)
}

// primitiveDescriptors maps Java source names of primitive types (and void)
// to their descriptor letter.
var primitiveDescriptors = map[string]byte{
	"void":    'V',
	"boolean": 'Z',
	"byte":    'B',
	"char":    'C',
	"short":   'S',
	"int":     'I',
	"long":    'J',
	"float":   'F',
	"double":  'D',
}

// appendJavaType appends the descriptor of a Java source type as written in
// mapping files ("int", "java.lang.String[][]", "com.example.Foo$Bar") to
// dst. It reports false for text that is not a type.
func appendJavaType(dst []byte, javaType string) ([]byte, bool) {
	base := javaType
	dims := 0
	for strings.HasSuffix(base, "[]") {
		base = base[:len(base)-2]
		dims++
	}
	if base == "" {
		return dst, false
	}
	for ; dims > 0; dims-- {
		dst = append(dst, '[')
	}
	if letter, ok := primitiveDescriptors[base]; ok {
		return append(dst, letter), true
	}
	dst = append(dst, 'L')
	for i := 0; i < len(base); i++ {
		c := base[i]
		switch c {
		case '.':
			if i == 0 || i == len(base)-1 || base[i-1] == '.' {
				return dst, false
			}
			c = '/'
		case ' ', '\t', '(', ')', ',', ';', '[', ']', '/', '<', '>', ':':
			return dst, false
		}
		dst = append(dst, c)
	}
	return append(dst, ';'), true
}

// appendMethodDescriptor appends the descriptor of a method with the given
// comma-separated Java parameter types and return type to dst.
func appendMethodDescriptor(dst []byte, params, returnType string) ([]byte, bool) {
	dst = append(dst, '(')
	if strings.TrimSpace(params) != "" {
		for {
			param, rest, more := strings.Cut(params, ",")
			param = strings.TrimSpace(param)
			if param == "void" {
				return dst, false
			}
			var ok bool
			if dst, ok = appendJavaType(dst, param); !ok {
				return dst, false
			}
			if !more {
				break
			}
			params = rest
		}
	}
	dst = append(dst, ')')
	return appendJavaType(dst, strings.TrimSpace(returnType))
}

// validMethodDescriptor reports whether desc is a well-formed JVM method
// descriptor in internal form.
func validMethodDescriptor(desc string) bool {
	if len(desc) < 3 || desc[0] != '(' {
		return false
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		n := fieldTypeLength(desc[i:])
		if n == 0 {
			return false
		}
		i += n
	}
	if i >= len(desc) {
		return false
	}
	i++ // ')'
	if desc[i:] == "V" {
		return true
	}
	n := fieldTypeLength(desc[i:])
	return n > 0 && i+n == len(desc)
}

// fieldTypeLength returns the length of the field descriptor at the start of
// s, or 0 if s does not start with one.
func fieldTypeLength(s string) int {
	i := 0
	for i < len(s) && s[i] == '[' {
		i++
	}
	if i >= len(s) {
		return 0
	}
	switch s[i] {
	case 'Z', 'B', 'C', 'S', 'I', 'J', 'F', 'D':
		return i + 1
	case 'L':
		end := strings.IndexByte(s[i:], ';')
		if end < 2 { // "L;" has no name
			return 0
		}
		return i + end + 1
	}
	return 0
}
