package javatest

import (
	"encoding/binary"
	"fmt"
)

// A minimal class-file walk, only for the negative tests: it finds a
// method's Code attribute so a test can break the method on purpose. The
// real class-file model lives in package classfile; this package must not
// depend on it (classfile's tests use this package).

type classReader struct {
	b   []byte
	pos int
	err error
}

func (r *classReader) u1() int {
	if r.err != nil || r.pos+1 > len(r.b) {
		r.fail()
		return 0
	}
	v := int(r.b[r.pos])
	r.pos++
	return v
}

func (r *classReader) u2() int {
	if r.err != nil || r.pos+2 > len(r.b) {
		r.fail()
		return 0
	}
	v := int(binary.BigEndian.Uint16(r.b[r.pos:]))
	r.pos += 2
	return v
}

func (r *classReader) u4() int {
	if r.err != nil || r.pos+4 > len(r.b) {
		r.fail()
		return 0
	}
	v := int(binary.BigEndian.Uint32(r.b[r.pos:]))
	r.pos += 4
	return v
}

func (r *classReader) skip(n int) {
	if r.err != nil || r.pos+n > len(r.b) {
		r.fail()
		return
	}
	r.pos += n
}

func (r *classReader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("truncated class file at byte %d", r.pos)
	}
}

// codeAttributeOffset returns the offset of the Code attribute's info (its
// max_stack field) of the method name+descriptor.
func codeAttributeOffset(class []byte, name, descriptor string) (int, error) {
	r := &classReader{b: class}
	if r.u4() != 0xCAFEBABE {
		return 0, fmt.Errorf("not a class file")
	}
	r.skip(4) // minor, major
	count := r.u2()
	utf8 := map[int]string{}
	for i := 1; i < count && r.err == nil; i++ {
		switch tag := r.u1(); tag {
		case 1:
			n := r.u2()
			start := r.pos
			r.skip(n)
			if r.err == nil {
				utf8[i] = string(class[start:r.pos])
			}
		case 3, 4, 9, 10, 11, 12, 17, 18: // int, float, refs, name-and-type, dynamic
			r.skip(4)
		case 5, 6: // long, double take two slots
			r.skip(8)
			i++
		case 7, 8, 16, 19, 20: // class, string, method type, module, package
			r.skip(2)
		case 15: // method handle
			r.skip(3)
		default:
			return 0, fmt.Errorf("constant %d: unknown tag %d", i, tag)
		}
	}
	r.skip(6) // access, this, super
	r.skip(2 * r.u2())
	skipMembers := func() {
		for n := r.u2(); n > 0 && r.err == nil; n-- {
			r.skip(6)
			for a := r.u2(); a > 0 && r.err == nil; a-- {
				r.skip(2)
				r.skip(r.u4())
			}
		}
	}
	skipMembers() // fields
	for n := r.u2(); n > 0 && r.err == nil; n-- {
		r.skip(2)
		mName, mDesc := utf8[r.u2()], utf8[r.u2()]
		for a := r.u2(); a > 0 && r.err == nil; a-- {
			attr := utf8[r.u2()]
			length := r.u4()
			if mName == name && mDesc == descriptor && attr == "Code" {
				return r.pos, r.err
			}
			r.skip(length)
		}
	}
	if r.err != nil {
		return 0, r.err
	}
	return 0, fmt.Errorf("no Code of method %s%s", name, descriptor)
}
