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

// keyParts are the pieces of MethodKey.String() before dotting: class,
// " ", name, and " ", descriptor when there is one. Parts 0 and 4 are
// dotted.
func keyParts(k MethodKey) ([5]string, int) {
	if k.Desc == "" {
		return [5]string{k.Class, " ", k.Name}, 3
	}
	return [5]string{k.Class, " ", k.Name, " ", k.Desc}, 5
}

// compareText is strings.Compare(a.String(), b.String()). It walks the
// two texts a run of bytes at a time (the longest stretch both current
// parts have left), dotting the class and descriptor bytes as it goes:
// the report checks the order of every neighbouring pair of a list.
func compareText(a, b MethodKey) int {
	pa, na := keyParts(a)
	pb, nb := keyParts(b)
	ia, ib, oa, ob := 0, 0, 0, 0
	if a.Class == b.Class {
		ia, ib = 1, 1
	}
	for {
		for ia < na && oa == len(pa[ia]) {
			ia, oa = ia+1, 0
		}
		for ib < nb && ob == len(pb[ib]) {
			ib, ob = ib+1, 0
		}
		if ia == na || ib == nb {
			// The text that has bytes left is the greater.
			return cmp.Compare(na-ia, nb-ib)
		}
		sa, sb := pa[ia][oa:], pb[ib][ob:]
		n := min(len(sa), len(sb))
		dotA, dotB := ia == 0 || ia == 4, ib == 0 || ib == 4
		for i := 0; i < n; i++ {
			ca, cb := sa[i], sb[i]
			if ca == cb {
				continue
			}
			if dotA && ca == '/' {
				ca = '.'
			}
			if dotB && cb == '/' {
				cb = '.'
			}
			if ca != cb {
				return cmp.Compare(ca, cb)
			}
		}
		oa, ob = oa+n, ob+n
	}
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
