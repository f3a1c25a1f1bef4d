// Package apiref answers whether the classes and members a jar's class
// files name exist in an API given as jars (Gradle's, Android's), looking
// a member up through the supertypes as the JVM resolves it. Tests use it
// to check code built against one API for another.
package apiref

import (
	"archive/zip"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/tracebeat/tracebeat/classfile"
)

// Index holds the classes of an API, by internal name.
type Index struct {
	classes map[string]*classfile.Class
}

// Load reads the class files of jars into an Index; a class in two jars is
// the first one's, as on a class path.
func Load(jars ...string) (*Index, error) {
	idx := &Index{classes: map[string]*classfile.Class{}}
	for _, jar := range jars {
		classes, err := ReadClasses(jar)
		if err != nil {
			return nil, err
		}
		for name, c := range classes {
			if _, seen := idx.classes[name]; !seen {
				idx.classes[name] = c
			}
		}
	}
	return idx, nil
}

// ReadClasses parses every class file of a jar but META-INF's, by internal
// name; an error names the jar and the entry.
func ReadClasses(jar string) (map[string]*classfile.Class, error) {
	zr, err := zip.OpenReader(jar)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	out := map[string]*classfile.Class{}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".class") || strings.HasPrefix(f.Name, "META-INF/") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s!%s: %w", jar, f.Name, err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s!%s: %w", jar, f.Name, err)
		}
		c, err := classfile.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s!%s: %w", jar, f.Name, err)
		}
		out[strings.TrimSuffix(f.Name, ".class")] = c
	}
	return out, nil
}

// Has tells whether the class exists and, for a member, whether it or a
// supertype in the API declares it; found is where, deprecated whether
// that declaration or its class is marked @Deprecated.
func (a *Index) Has(ref classfile.MemberRef) (found string, deprecated bool) {
	seen := map[string]bool{}
	var walk func(name string) (string, bool)
	walk = func(name string) (string, bool) {
		c, ok := a.classes[name]
		if !ok || seen[name] {
			return "", false
		}
		seen[name] = true
		members := c.Methods
		if ref.Tag == classfile.TagFieldref {
			members = c.Fields
		}
		for _, m := range members {
			n, _ := c.Pool.Utf8(m.Name)
			d, _ := c.Pool.Utf8(m.Descriptor)
			if n == ref.Name && d == ref.Descriptor {
				return name, isDeprecated(c, m.Attributes) || isDeprecated(c, c.Attributes)
			}
		}
		supers := append([]uint16{}, c.Interfaces...)
		if c.SuperClass != 0 {
			supers = append([]uint16{c.SuperClass}, supers...)
		}
		for _, s := range supers {
			sn, _ := c.Pool.ClassName(s)
			if where, dep := walk(sn); where != "" {
				return where, dep
			}
		}
		return "", false
	}
	if ref.Name == "" { // a class reference
		c, ok := a.classes[ref.Class]
		if !ok {
			return "", false
		}
		return ref.Class, isDeprecated(c, c.Attributes)
	}
	return walk(ref.Class)
}

// Outside lists the supertypes of class, itself included, that the API
// does not hold: where a member may be declared that Has cannot see.
func (a *Index) Outside(class string) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(name string)
	walk = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		c, ok := a.classes[name]
		if !ok {
			out = append(out, name)
			return
		}
		if c.SuperClass != 0 {
			sn, _ := c.Pool.ClassName(c.SuperClass)
			walk(sn)
		}
		for _, i := range c.Interfaces {
			in, _ := c.Pool.ClassName(i)
			walk(in)
		}
	}
	walk(class)
	return out
}

// isDeprecated: a Deprecated attribute, or a runtime-visible annotation
// naming java/lang/Deprecated (the attribute's bytes name its pool index).
func isDeprecated(c *classfile.Class, attrs []classfile.Attribute) bool {
	for _, at := range attrs {
		name, _ := c.Pool.Utf8(at.Name)
		switch name {
		case "Deprecated":
			return true
		case "RuntimeVisibleAnnotations":
			for i := 0; i+1 < len(at.Data); i++ {
				idx := binary.BigEndian.Uint16(at.Data[i:])
				if c.Pool.Tag(idx) == classfile.TagUtf8 {
					if s, _ := c.Pool.Utf8(idx); s == "Ljava/lang/Deprecated;" {
						return true
					}
				}
			}
		}
	}
	return false
}

// Refs lists the classes and members the class files name (class
// references, field and method references, and the types of the
// annotations whose descriptors annotation matches), those whose class
// keep accepts, each with the simple names of the classes that name it.
func Refs(classFiles map[string][]byte, keep func(class string) bool, annotation func(descriptor string) bool) (map[classfile.MemberRef][]string, error) {
	refs := map[classfile.MemberRef][]string{}
	for name, data := range classFiles {
		if !strings.HasSuffix(name, ".class") {
			continue
		}
		c, err := classfile.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		user := strings.TrimSuffix(name[strings.LastIndex(name, "/")+1:], ".class")
		for i := 1; i < c.Pool.Count(); i++ {
			var ref classfile.MemberRef
			switch c.Pool.Tag(uint16(i)) {
			case classfile.TagClass:
				n, err := c.Pool.ClassName(uint16(i))
				if err != nil {
					continue
				}
				ref = classfile.MemberRef{Class: strings.TrimSuffix(strings.TrimPrefix(strings.TrimLeft(n, "["), "L"), ";")}
			case classfile.TagUtf8:
				// Annotation types (@CacheableTask, @InputFile, ...) are
				// named by descriptor only.
				u, _ := c.Pool.Utf8(uint16(i))
				if annotation == nil || !annotation(u) {
					continue
				}
				ref = classfile.MemberRef{Class: strings.TrimSuffix(strings.TrimPrefix(u, "L"), ";")}
			case classfile.TagFieldref, classfile.TagMethodref, classfile.TagInterfaceMethodref:
				r, err := c.Pool.Ref(uint16(i))
				if err != nil {
					continue
				}
				ref = r
			default:
				continue
			}
			if len(ref.Class) > 1 && keep(ref.Class) {
				refs[ref] = append(refs[ref], user)
			}
		}
	}
	return refs, nil
}
