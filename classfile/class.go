package classfile

import (
	"encoding/binary"
	"fmt"
	"sync"
)

// Magic is the first four bytes of every class file.
const Magic = 0xCAFEBABE

// Access flags used across the project (JVMS tables 4.1-B, 4.6-A).
const (
	AccPublic       = 0x0001
	AccPrivate      = 0x0002
	AccStatic       = 0x0008
	AccFinal        = 0x0010
	AccSynchronized = 0x0020
	AccBridge       = 0x0040
	AccNative       = 0x0100
	AccInterface    = 0x0200
	AccAbstract     = 0x0400
	AccSynthetic    = 0x1000
	AccAnnotation   = 0x2000
	AccEnum         = 0x4000
	AccModule       = 0x8000
)

// Supported major versions: JDK 1.1 (45) through Java 25 (69).
const (
	MinMajor = 45
	MaxMajor = 69
)

// Class is a parsed class file. Attributes and member attributes stay raw
// (they alias the parsed buffer), so an unchanged Class encodes to the bytes
// it was parsed from.
type Class struct {
	Minor, Major uint16
	Pool         *ConstantPool
	Access       uint16
	ThisClass    uint16
	SuperClass   uint16 // 0 for java/lang/Object and module-info
	Interfaces   []uint16
	Fields       []Member
	Methods      []Member
	Attributes   []Attribute
}

// Member is a field or a method.
type Member struct {
	Access     uint16
	Name       uint16
	Descriptor uint16
	Attributes []Attribute
}

// Attribute is an attribute kept as its name index and raw body.
type Attribute struct {
	Name uint16
	Data []byte
}

// parseSlabs hands out the slices of parsed classes (see slab): pooled,
// so that a class costs about one allocation instead of seven.
type parseSlabs struct {
	offs    slab[uint32]
	tags    slab[uint8]
	ifaces  slab[uint16]
	members slab[Member]
	attrs   slab[Attribute]
}

var parseSlabsPool = sync.Pool{New: func() any { return new(parseSlabs) }}

// Parse reads a class file. The returned Class aliases data: do not modify
// data while the Class is in use.
func Parse(data []byte) (*Class, error) {
	ps := parseSlabsPool.Get().(*parseSlabs)
	defer parseSlabsPool.Put(ps)
	return ps.parse(data)
}

func (ps *parseSlabs) parse(data []byte) (*Class, error) {
	r := &reader{buf: data, where: "class"}
	if m := r.u4(); r.err != nil || m != Magic {
		if r.err != nil {
			return nil, r.err
		}
		return nil, formatErr("class", 0, "bad magic 0x%08X", m)
	}
	// The Class and its pool live and die together: one allocation.
	both := new(struct {
		class Class
		pool  ConstantPool
	})
	c := &both.class
	c.Minor = r.u2()
	c.Major = r.u2()
	if r.err != nil {
		return nil, r.err
	}
	if c.Major < MinMajor || c.Major > MaxMajor {
		return nil, formatErr("class", 6, "unsupported major version %d", c.Major)
	}
	pool := &both.pool
	if err := parseConstantPool(r, pool, ps); err != nil {
		return nil, err
	}
	c.Pool = pool
	c.Access = r.u2()
	thisOff := r.pos
	c.ThisClass = r.u2()
	c.SuperClass = r.u2()
	n := int(r.u2())
	if r.err != nil {
		return nil, r.err
	}
	if pool.Tag(c.ThisClass) != TagClass {
		return nil, formatErr("class", thisOff, "this_class index %d is not a Class constant", c.ThisClass)
	}
	if c.SuperClass != 0 && pool.Tag(c.SuperClass) != TagClass {
		return nil, formatErr("class", thisOff+2, "super_class index %d is not a Class constant", c.SuperClass)
	}
	if n > 0 {
		if n > r.remaining()/2 {
			return nil, formatErr("class", r.pos, "%d interfaces cannot fit in the %d bytes left", n, r.remaining())
		}
		c.Interfaces = ps.ifaces.take(n)
		for i := range c.Interfaces {
			off := r.pos
			c.Interfaces[i] = r.u2()
			if r.err == nil && pool.Tag(c.Interfaces[i]) != TagClass {
				return nil, formatErr("class", off, "interface %d: index %d is not a Class constant", i, c.Interfaces[i])
			}
		}
	}
	// All attribute lists of the class share one backing array instead of
	// one array per member.
	arena := ps.attrs.take(32)[:0]
	var err error
	if c.Fields, err = ps.parseMembers(r, pool, "field", &arena); err != nil {
		return nil, err
	}
	if c.Methods, err = ps.parseMembers(r, pool, "method", &arena); err != nil {
		return nil, err
	}
	if c.Attributes, err = ps.parseAttributes(r, pool, &arena); err != nil {
		return nil, err
	}
	if r.remaining() != 0 {
		return nil, formatErr("class", r.pos, "%d trailing bytes after the class file", r.remaining())
	}
	return c, nil
}

func (ps *parseSlabs) parseMembers(r *reader, pool *ConstantPool, kind string, arena *[]Attribute) ([]Member, error) {
	n := int(r.u2())
	if r.err != nil {
		return nil, r.err
	}
	if n == 0 {
		return nil, nil
	}
	if n > r.remaining()/8 {
		return nil, formatErr("class", r.pos, "%d %ss cannot fit in the %d bytes left", n, kind, r.remaining())
	}
	ms := ps.members.take(n)
	for i := range ms {
		m := &ms[i]
		off := r.pos
		m.Access = r.u2()
		m.Name = r.u2()
		m.Descriptor = r.u2()
		if r.err != nil {
			return nil, r.err
		}
		if pool.Tag(m.Name) != TagUtf8 || pool.Tag(m.Descriptor) != TagUtf8 {
			return nil, formatErr("class", off, "%s %d: name or descriptor index is not a Utf8 constant", kind, i)
		}
		var err error
		if m.Attributes, err = ps.parseAttributes(r, pool, arena); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

// parseAttributes reads an attribute list into the arena and returns it as
// a slice of the arena whose capacity ends at its length, so appending to
// it never writes over a neighbour's attributes.
func (ps *parseSlabs) parseAttributes(r *reader, pool *ConstantPool, arena *[]Attribute) ([]Attribute, error) {
	n := int(r.u2())
	if r.err != nil {
		return nil, r.err
	}
	if n == 0 {
		return nil, nil
	}
	if n > r.remaining()/6 {
		return nil, formatErr("class", r.pos, "%d attributes cannot fit in the %d bytes left", n, r.remaining())
	}
	if len(*arena)+n > cap(*arena) {
		*arena = ps.attrs.take(max(2*cap(*arena), n))[:0]
	}
	start := len(*arena)
	*arena = (*arena)[:start+n]
	as := (*arena)[start : start+n : start+n]
	for i := range as {
		off := r.pos
		as[i].Name = r.u2()
		size := r.u4()
		if r.err != nil {
			return nil, r.err
		}
		if pool.Tag(as[i].Name) != TagUtf8 {
			return nil, formatErr("class", off, "attribute name index %d is not a Utf8 constant", as[i].Name)
		}
		if int64(size) > int64(r.remaining()) {
			return nil, formatErr("class", off, "attribute length %d exceeds the %d bytes left", size, r.remaining())
		}
		as[i].Data = r.bytes(int(size))
	}
	return as, nil
}

// Name returns the internal name of the class.
func (c *Class) Name() (string, error) { return c.Pool.ClassName(c.ThisClass) }

// SuperName returns the internal name of the superclass, "" when there is none.
func (c *Class) SuperName() (string, error) {
	if c.SuperClass == 0 {
		return "", nil
	}
	return c.Pool.ClassName(c.SuperClass)
}

// MemberName returns the name and descriptor of a field or method.
func (c *Class) MemberName(m *Member) (name, desc string, err error) {
	if name, err = c.Pool.Utf8(m.Name); err != nil {
		return "", "", err
	}
	desc, err = c.Pool.Utf8(m.Descriptor)
	return name, desc, err
}

// FindAttribute returns the first attribute named name among attrs.
func (c *Class) FindAttribute(attrs []Attribute, name string) (*Attribute, bool) {
	for i := range attrs {
		if b, err := c.Pool.Utf8Bytes(attrs[i].Name); err == nil && string(b) == name {
			return &attrs[i], true
		}
	}
	return nil, false
}

// Size returns the encoded size of the class in bytes.
func (c *Class) Size() int {
	n := 10 + len(c.Pool.data) + 8 + 2*len(c.Interfaces) + 2 + 2 + attrsSize(c.Attributes)
	for _, ms := range [2][]Member{c.Fields, c.Methods} {
		for i := range ms {
			n += 6 + attrsSize(ms[i].Attributes)
		}
	}
	return n
}

func attrsSize(as []Attribute) int {
	n := 2
	for i := range as {
		n += 6 + len(as[i].Data)
	}
	return n
}

// Encode serialises the class.
func (c *Class) Encode() ([]byte, error) { return c.AppendTo(make([]byte, 0, c.Size())) }

// AppendTo appends the encoded class to dst.
func (c *Class) AppendTo(dst []byte) ([]byte, error) {
	if len(c.Interfaces) > 0xFFFF || len(c.Fields) > 0xFFFF || len(c.Methods) > 0xFFFF {
		return nil, fmt.Errorf("too many interfaces, fields or methods")
	}
	dst = binary.BigEndian.AppendUint32(dst, Magic)
	dst = binary.BigEndian.AppendUint16(dst, c.Minor)
	dst = binary.BigEndian.AppendUint16(dst, c.Major)
	dst = c.Pool.appendTo(dst)
	dst = binary.BigEndian.AppendUint16(dst, c.Access)
	dst = binary.BigEndian.AppendUint16(dst, c.ThisClass)
	dst = binary.BigEndian.AppendUint16(dst, c.SuperClass)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(c.Interfaces)))
	for _, i := range c.Interfaces {
		dst = binary.BigEndian.AppendUint16(dst, i)
	}
	var err error
	for _, ms := range [2][]Member{c.Fields, c.Methods} {
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(ms)))
		for i := range ms {
			m := &ms[i]
			dst = binary.BigEndian.AppendUint16(dst, m.Access)
			dst = binary.BigEndian.AppendUint16(dst, m.Name)
			dst = binary.BigEndian.AppendUint16(dst, m.Descriptor)
			if dst, err = appendAttributes(dst, m.Attributes); err != nil {
				return nil, err
			}
		}
	}
	return appendAttributes(dst, c.Attributes)
}

func appendAttributes(dst []byte, as []Attribute) ([]byte, error) {
	if len(as) > 0xFFFF {
		return nil, fmt.Errorf("too many attributes (%d)", len(as))
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(as)))
	for i := range as {
		if int64(len(as[i].Data)) > 0xFFFFFFFF {
			return nil, fmt.Errorf("attribute of %d bytes is too large", len(as[i].Data))
		}
		dst = binary.BigEndian.AppendUint16(dst, as[i].Name)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(as[i].Data)))
		dst = append(dst, as[i].Data...)
	}
	return dst, nil
}
