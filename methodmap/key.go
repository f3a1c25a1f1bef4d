package methodmap

import (
	"cmp"
	"strings"
)

// JVM access flags this package looks at. The class-file package has its own
// copy; these few are duplicated so methodmap does not depend on it.
const (
	accPublic    = 0x0001
	accNative    = 0x0100
	accInterface = 0x0200
	accAbstract  = 0x0400
)

// MethodKey identifies a method by its class (internal name, slashes), name
// and descriptor (internal form). Desc is empty only for a native method read
// from a map file, because the map format omits native descriptors.
type MethodKey struct {
	Class string
	Name  string
	Desc  string
}

// Method is a traced method as handed to Assign.
type Method struct {
	Key    MethodKey
	Access uint16
}

// String returns the dotted "class method desc" text (without the
// descriptor when Desc is empty). It is what the user sees in messages.
func (k MethodKey) String() string {
	if k.Desc == "" {
		return dotted(k.Class) + " " + k.Name
	}
	return dotted(k.Class) + " " + k.Name + " " + dotted(k.Desc)
}

// mapText is the "class method [desc]" part of a map line: native methods
// omit the descriptor, as Matrix does.
func mapText(k MethodKey, access uint16) string {
	return lineKey(k, access).String()
}

// lineKey is the key as a map line can express it: the descriptor of a native
// method is dropped. Two methods with the same lineKey cannot be told apart
// in a map file, so matching between maps, and between a map and a jar, uses
// lineKey.
func lineKey(k MethodKey, access uint16) MethodKey {
	if access&accNative != 0 {
		k.Desc = ""
	}
	return k
}

// compareKeys is THE order of methods: byte order of the dotted text
// "class method desc" (descriptor always included). Because a space sorts
// below every character of a Java identifier, all methods of a class come
// before those of its nested classes ("a.B foo" < "a.B$1 bar"). Ties, which
// need spaces inside names, fall back to the fields so the order is total.
// It compares the text without building it: sorting 400,000 methods must
// not allocate per comparison.
func compareKeys(a, b MethodKey) int {
	if c := compareText(a, b); c != 0 {
		return c
	}
	return cmp.Or(
		strings.Compare(a.Class, b.Class),
		strings.Compare(a.Name, b.Name),
		strings.Compare(a.Desc, b.Desc),
	)
}

// keyText walks the bytes of MethodKey.String() one at a time.
type keyText struct {
	parts [5]string
	n     int // parts in use
	part  int
	pos   int
}

func newKeyText(k MethodKey) keyText {
	t := keyText{parts: [5]string{k.Class, " ", k.Name, " ", k.Desc}, n: 5}
	if k.Desc == "" {
		t.n = 3
	}
	return t
}

// next returns the next byte of the dotted text, or -1 at the end.
func (t *keyText) next() int {
	for t.part < t.n {
		p := t.parts[t.part]
		if t.pos < len(p) {
			c := p[t.pos]
			t.pos++
			if c == '/' && (t.part == 0 || t.part == 4) {
				c = '.'
			}
			return int(c)
		}
		t.part++
		t.pos = 0
	}
	return -1
}

// compareText is strings.Compare(a.String(), b.String()).
func compareText(a, b MethodKey) int {
	ta, tb := newKeyText(a), newKeyText(b)
	// Bytes that are equal stay equal when slashes become dots, so the
	// classes' common prefix (all of it, for the neighbours of a sorted
	// list) is passed over at once.
	if a.Class == b.Class {
		ta.part, tb.part = 1, 1
	} else {
		n := commonPrefix(a.Class, b.Class)
		ta.pos, tb.pos = n, n
	}
	for {
		ca, cb := ta.next(), tb.next()
		if ca != cb {
			return cmp.Compare(ca, cb)
		}
		if ca < 0 {
			return 0
		}
	}
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func dotted(s string) string { return strings.ReplaceAll(s, "/", ".") }

// appendDotted appends s with its slashes as dots.
func appendDotted(dst []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(append(dst, s[:i]...), '.')
		s = s[i+1:]
	}
}

// appendMapText appends mapText(k, access) without building the string:
// a map has hundreds of thousands of lines.
func appendMapText(dst []byte, k MethodKey, access uint16) []byte {
	k = lineKey(k, access)
	dst = appendDotted(dst, k.Class)
	dst = append(dst, ' ')
	dst = append(dst, k.Name...)
	if k.Desc != "" {
		dst = append(dst, ' ')
		dst = appendDotted(dst, k.Desc)
	}
	return dst
}
func slashed(s string) string { return strings.ReplaceAll(s, ".", "/") }
