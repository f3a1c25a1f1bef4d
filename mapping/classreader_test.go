package mapping

import (
	"archive/zip"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// A deliberately small class-file reader for the ProGuard test: it reads a
// class's own name and the names and descriptors of its methods, which is
// all the test needs to check the mapping against real jars. It does not
// use the project's classfile package so that this package's tests do not
// depend on it.

type jarClass struct {
	name    string             // internal name
	methods map[signature]bool // name + descriptor
}

// readJarClasses reads every .class entry of the jar at path, keyed by the
// class's internal name as stored in the class file.
func readJarClasses(path string) (map[string]*jarClass, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	classes := map[string]*jarClass{}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".class") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		c, err := readClass(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, f.Name, err)
		}
		if c.name+".class" != f.Name {
			return nil, fmt.Errorf("%s: entry %s holds class %s", path, f.Name, c.name)
		}
		classes[c.name] = c
	}
	return classes, nil
}

type classBytes struct {
	data []byte
	pos  int
	err  error
}

func (b *classBytes) u1() int {
	if b.err != nil || b.pos+1 > len(b.data) {
		b.err = io.ErrUnexpectedEOF
		return 0
	}
	b.pos++
	return int(b.data[b.pos-1])
}

func (b *classBytes) u2() int {
	if b.err != nil || b.pos+2 > len(b.data) {
		b.err = io.ErrUnexpectedEOF
		return 0
	}
	b.pos += 2
	return int(binary.BigEndian.Uint16(b.data[b.pos-2:]))
}

func (b *classBytes) u4() int {
	if b.err != nil || b.pos+4 > len(b.data) {
		b.err = io.ErrUnexpectedEOF
		return 0
	}
	b.pos += 4
	return int(binary.BigEndian.Uint32(b.data[b.pos-4:]))
}

func (b *classBytes) skip(n int) {
	if b.err != nil || b.pos+n > len(b.data) {
		b.err = io.ErrUnexpectedEOF
		return
	}
	b.pos += n
}

func readClass(data []byte) (*jarClass, error) {
	b := &classBytes{data: data}
	b.skip(8) // magic, minor, major
	count := b.u2()
	utf8 := make([]string, count)
	classIndex := make([]int, count)
	for i := 1; i < count && b.err == nil; i++ {
		switch tag := b.u1(); tag {
		case 1: // Utf8 (the fixture's names are ASCII, so modified UTF-8 is plain)
			n := b.u2()
			start := b.pos
			b.skip(n)
			if b.err == nil {
				utf8[i] = string(data[start : start+n])
			}
		case 7: // Class
			classIndex[i] = b.u2()
		case 8, 16, 19, 20: // String, MethodType, Module, Package
			b.skip(2)
		case 15: // MethodHandle
			b.skip(3)
		case 3, 4, 9, 10, 11, 12, 17, 18:
			b.skip(4)
		case 5, 6: // Long, Double take two slots
			b.skip(8)
			i++
		default:
			return nil, fmt.Errorf("unknown constant pool tag %d", tag)
		}
	}
	b.skip(2) // access flags
	this := b.u2()
	b.skip(2) // super
	b.skip(2 * b.u2())
	if b.err != nil || this >= count || classIndex[this] >= count {
		return nil, fmt.Errorf("bad class header")
	}
	c := &jarClass{name: utf8[classIndex[this]], methods: map[signature]bool{}}
	members := func(record bool) {
		for n := b.u2(); n > 0 && b.err == nil; n-- {
			b.skip(2)
			name, desc := b.u2(), b.u2()
			for a := b.u2(); a > 0 && b.err == nil; a-- {
				b.skip(2)
				b.skip(b.u4())
			}
			if record && name < count && desc < count {
				c.methods[signature{utf8[name], utf8[desc]}] = true
			}
		}
	}
	members(false) // fields
	members(true)  // methods
	if b.err != nil {
		return nil, b.err
	}
	return c, nil
}
