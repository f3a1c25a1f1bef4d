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
func compareKeys(a, b MethodKey) int {
	if c := strings.Compare(a.String(), b.String()); c != 0 {
		return c
	}
	return cmp.Or(
		strings.Compare(a.Class, b.Class),
		strings.Compare(a.Name, b.Name),
		strings.Compare(a.Desc, b.Desc),
	)
}

func dotted(s string) string  { return strings.ReplaceAll(s, "/", ".") }
func slashed(s string) string { return strings.ReplaceAll(s, ".", "/") }
