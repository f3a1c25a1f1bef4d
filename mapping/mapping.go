package mapping

import (
	"slices"
	"strings"
)

// Mapping is a parsed mapping file. It is read-only after Parse and safe for
// concurrent use.
type Mapping struct {
	version string            // R8 map version from metadata, "" if none
	byObf   map[string]*class // obfuscated internal name -> class
	byOrig  map[string]*class // original internal name -> class
	// Package names in internal form without a trailing slash ("" is the
	// default package). One original package can be spread over several
	// obfuscated packages and, with -repackageclasses, one obfuscated package
	// collects many original ones, so both directions map to sorted lists.
	obfPackages  map[string][]string // original package -> obfuscated packages
	origPackages map[string][]string // obfuscated package -> original packages
}

// class is one class line with the methods that belong to it.
type class struct {
	orig, obf string // internal names
	line      int    // line of the class in the file, for error messages
	methods   []method
	// Indexes into methods; built only for classes with many methods, small
	// classes are searched linearly (cheaper than a map and less memory for
	// the tens of thousands of classes in a large app).
	byOrigSig map[signature]int
	byObfSig  map[signature]int
}

// method is one method of a class: its original name and descriptor and its
// obfuscated name and descriptor. The obfuscated descriptor is the original
// one with class names obfuscated, unless R8 recorded a residual signature
// (a method whose parameters it changed).
type method struct {
	orig signature
	obf  signature
	// residual is R8's residual signature (obfuscated descriptor) when the
	// mapping gave one, "" otherwise.
	residual string
}

// signature is a method name plus descriptor; used as a map key.
type signature struct {
	name, desc string
}

// indexThreshold is the number of methods above which a class gets maps.
const indexThreshold = 8

// Version returns the R8 map version declared by the file's
// com.android.tools.r8.mapping metadata, or "" (ProGuard writes none).
func (m *Mapping) Version() string { return m.version }

// NumClasses returns the number of classes in the mapping.
func (m *Mapping) NumClasses() int { return len(m.byObf) }

// OriginalClass returns the original internal name of the obfuscated class
// obf. A class the mapping does not list was not renamed: it maps to itself
// and ok is false.
func (m *Mapping) OriginalClass(obf string) (orig string, ok bool) {
	if c := m.byObf[obf]; c != nil {
		return c.orig, true
	}
	return obf, false
}

// ObfuscatedClass returns the obfuscated internal name of the original class
// orig. A class the mapping does not list maps to itself and ok is false.
func (m *Mapping) ObfuscatedClass(orig string) (obf string, ok bool) {
	if c := m.byOrig[orig]; c != nil {
		return c.obf, true
	}
	return orig, false
}

// originalClassName and obfuscatedClassName are the class maps as plain
// functions, for RemapDescriptor.
func (m *Mapping) originalClassName(obf string) string {
	orig, _ := m.OriginalClass(obf)
	return orig
}

func (m *Mapping) obfuscatedClassName(orig string) string {
	obf, _ := m.ObfuscatedClass(orig)
	return obf
}

// OriginalDescriptor maps the class names in an obfuscated descriptor to
// their original names.
func (m *Mapping) OriginalDescriptor(obfDesc string) string {
	return RemapDescriptor(obfDesc, m.originalClassName)
}

// ObfuscatedDescriptor maps the class names in an original descriptor to
// their obfuscated names.
func (m *Mapping) ObfuscatedDescriptor(origDesc string) string {
	return RemapDescriptor(origDesc, m.obfuscatedClassName)
}

// OriginalMethod returns the original name and descriptor of the method
// obfName obfDesc declared in the obfuscated class obfClass. Overloads that
// share an obfuscated name are told apart by their descriptors. When the
// mapping has no entry for the method, the name is returned unchanged, the
// descriptor with its class names mapped to original names, and ok is false.
func (m *Mapping) OriginalMethod(obfClass, obfName, obfDesc string) (name, desc string, ok bool) {
	if c := m.byObf[obfClass]; c != nil {
		if i := c.find(c.byObfSig, signature{obfName, obfDesc}, false); i >= 0 {
			return c.methods[i].orig.name, c.methods[i].orig.desc, true
		}
	}
	return obfName, m.OriginalDescriptor(obfDesc), false
}

// ObfuscatedMethod returns the obfuscated name and descriptor of the method
// origName origDesc declared in the original class origClass. When the
// mapping has no entry for the method, the name is returned unchanged, the
// descriptor with its class names obfuscated, and ok is false.
func (m *Mapping) ObfuscatedMethod(origClass, origName, origDesc string) (name, desc string, ok bool) {
	if c := m.byOrig[origClass]; c != nil {
		if i := c.find(c.byOrigSig, signature{origName, origDesc}, true); i >= 0 {
			return c.methods[i].obf.name, c.methods[i].obf.desc, true
		}
	}
	return origName, m.ObfuscatedDescriptor(origDesc), false
}

// find returns the index of the first method whose original (byOrig) or
// obfuscated signature is sig, or -1.
func (c *class) find(index map[signature]int, sig signature, byOrig bool) int {
	if index != nil {
		if i, ok := index[sig]; ok {
			return i
		}
		return -1
	}
	for i := range c.methods {
		s := c.methods[i].obf
		if byOrig {
			s = c.methods[i].orig
		}
		if s == sig {
			return i
		}
	}
	return -1
}

// ObfuscatedPackages returns the obfuscated packages that classes of the
// original package orig (internal form, e.g. "com/example"; a trailing slash
// is ignored; "" is the default package) were moved to, sorted. Only classes
// directly in the package count, not those of subpackages. A package with no
// class in the mapping maps to itself and ok is false.
func (m *Mapping) ObfuscatedPackages(orig string) (obf []string, ok bool) {
	orig = strings.TrimSuffix(orig, "/")
	if pkgs, ok := m.obfPackages[orig]; ok {
		return slices.Clone(pkgs), true
	}
	return []string{orig}, false
}

// OriginalPackages returns the original packages whose classes ended up in
// the obfuscated package obf, sorted. A package with no class in the mapping
// maps to itself and ok is false.
func (m *Mapping) OriginalPackages(obf string) (orig []string, ok bool) {
	obf = strings.TrimSuffix(obf, "/")
	if pkgs, ok := m.origPackages[obf]; ok {
		return slices.Clone(pkgs), true
	}
	return []string{obf}, false
}

// packageOf returns the package of an internal class name, "" for the
// default package.
func packageOf(internalName string) string {
	if i := strings.LastIndexByte(internalName, '/'); i >= 0 {
		return internalName[:i]
	}
	return ""
}

// finish builds the derived indexes once all lines are read: obfuscated
// descriptors need the whole class map because a method may mention a class
// whose line comes later in the file.
func (m *Mapping) finish() {
	obfPkgs := map[string]map[string]bool{}
	origPkgs := map[string]map[string]bool{}
	add := func(sets map[string]map[string]bool, key, value string) {
		set := sets[key]
		if set == nil {
			set = map[string]bool{}
			sets[key] = set
		}
		set[value] = true
	}
	for _, c := range m.byObf {
		add(obfPkgs, packageOf(c.orig), packageOf(c.obf))
		add(origPkgs, packageOf(c.obf), packageOf(c.orig))
		for i := range c.methods {
			mt := &c.methods[i]
			mt.obf.desc = mt.residual
			if mt.obf.desc == "" {
				mt.obf.desc = m.ObfuscatedDescriptor(mt.orig.desc)
			}
		}
		if len(c.methods) > indexThreshold {
			c.byOrigSig = make(map[signature]int, len(c.methods))
			c.byObfSig = make(map[signature]int, len(c.methods))
			for i, mt := range c.methods {
				// The first entry wins, as in the linear search.
				if _, dup := c.byOrigSig[mt.orig]; !dup {
					c.byOrigSig[mt.orig] = i
				}
				if _, dup := c.byObfSig[mt.obf]; !dup {
					c.byObfSig[mt.obf] = i
				}
			}
		}
	}
	m.obfPackages = sortedLists(obfPkgs)
	m.origPackages = sortedLists(origPkgs)
}

func sortedLists(sets map[string]map[string]bool) map[string][]string {
	out := make(map[string][]string, len(sets))
	for key, set := range sets {
		list := make([]string, 0, len(set))
		for v := range set {
			list = append(list, v)
		}
		slices.Sort(list)
		out[key] = list
	}
	return out
}
