package classfile

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Constant-pool tags (JVMS §4.4).
const (
	TagUtf8               = 1
	TagInteger            = 3
	TagFloat              = 4
	TagLong               = 5
	TagDouble             = 6
	TagClass              = 7
	TagString             = 8
	TagFieldref           = 9
	TagMethodref          = 10
	TagInterfaceMethodref = 11
	TagNameAndType        = 12
	TagMethodHandle       = 15
	TagMethodType         = 16
	TagDynamic            = 17
	TagInvokeDynamic      = 18
	TagModule             = 19
	TagPackage            = 20
)

// maxPoolCount is the largest constant_pool_count a class file can hold.
const maxPoolCount = 65535

// ConstantPool keeps the pool as its encoded bytes plus an index of where
// each entry starts. Reading never copies; writing an unchanged pool emits
// the original bytes. Additions are appended, so existing indices never move.
type ConstantPool struct {
	data []byte   // encoded entries (without the count); aliases the input until the first addition
	offs []uint32 // offs[i] = start of entry i in data; entry 0 and second slots of long/double are unused
	tags []uint8  // tags[i], 0 for unusable slots

	grown bool
	// consts indexes Integer and String entries on first lookup of one of
	// them: a rewrite adds one per traced method, and a linear scan each
	// time would cost the pool's size per method.
	consts map[poolKey]uint16
}

type poolKey struct {
	tag  uint8
	body string
}

// Count returns constant_pool_count: one more than the highest index.
func (p *ConstantPool) Count() int { return len(p.tags) }

// Tag returns the tag of entry i, or 0 when i is not a usable index.
func (p *ConstantPool) Tag(i uint16) uint8 {
	if int(i) >= len(p.tags) {
		return 0
	}
	return p.tags[i]
}

// entry returns the body of entry i (after the tag byte) when its tag is want.
func (p *ConstantPool) entry(i uint16, want uint8) ([]byte, error) {
	if int(i) >= len(p.tags) || p.tags[i] == 0 {
		return nil, fmt.Errorf("constant pool index %d is not a valid entry (count %d)", i, len(p.tags))
	}
	if p.tags[i] != want {
		return nil, fmt.Errorf("constant pool index %d has tag %d, want %d", i, p.tags[i], want)
	}
	off := int(p.offs[i]) + 1
	return p.data[off : off+entryBodyLen(p.data, off-1)], nil
}

// Utf8Bytes returns the raw (modified UTF-8) bytes of a Utf8 entry without copying.
func (p *ConstantPool) Utf8Bytes(i uint16) ([]byte, error) {
	b, err := p.entry(i, TagUtf8)
	if err != nil {
		return nil, err
	}
	return b[2:], nil
}

// Utf8 returns a Utf8 entry as a Go string. Modified UTF-8 differs from
// UTF-8 only for NUL and supplementary characters; those are converted.
func (p *ConstantPool) Utf8(i uint16) (string, error) {
	b, err := p.Utf8Bytes(i)
	if err != nil {
		return "", err
	}
	return decodeModifiedUTF8(b), nil
}

// ClassName returns the internal name of a Class entry.
func (p *ConstantPool) ClassName(i uint16) (string, error) {
	at, err := p.ClassNameIndex(i)
	if err != nil {
		return "", err
	}
	return p.Utf8(at)
}

// ClassNameIndex returns the index of the Utf8 entry that names Class
// entry i, for callers that read the name's bytes without making a string.
func (p *ConstantPool) ClassNameIndex(i uint16) (uint16, error) {
	b, err := p.entry(i, TagClass)
	if err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint16(b), nil
}

// Integer returns the value of an Integer entry.
func (p *ConstantPool) Integer(i uint16) (int32, error) {
	b, err := p.entry(i, TagInteger)
	if err != nil {
		return 0, err
	}
	return int32(binary.BigEndian.Uint32(b)), nil
}

// MemberRef is a resolved Fieldref, Methodref or InterfaceMethodref.
type MemberRef struct {
	Tag                     uint8
	Class, Name, Descriptor string
}

// Ref resolves a Fieldref, Methodref or InterfaceMethodref entry.
func (p *ConstantPool) Ref(i uint16) (MemberRef, error) {
	tag := p.Tag(i)
	if tag != TagFieldref && tag != TagMethodref && tag != TagInterfaceMethodref {
		return MemberRef{}, fmt.Errorf("constant pool index %d is not a member reference (tag %d)", i, tag)
	}
	b, _ := p.entry(i, tag)
	cls, err := p.ClassName(binary.BigEndian.Uint16(b))
	if err != nil {
		return MemberRef{}, err
	}
	name, desc, err := p.NameAndType(binary.BigEndian.Uint16(b[2:]))
	if err != nil {
		return MemberRef{}, err
	}
	return MemberRef{Tag: tag, Class: cls, Name: name, Descriptor: desc}, nil
}

// NameAndType resolves a NameAndType entry.
func (p *ConstantPool) NameAndType(i uint16) (name, desc string, err error) {
	b, err := p.entry(i, TagNameAndType)
	if err != nil {
		return "", "", err
	}
	if name, err = p.Utf8(binary.BigEndian.Uint16(b)); err != nil {
		return "", "", err
	}
	desc, err = p.Utf8(binary.BigEndian.Uint16(b[2:]))
	return name, desc, err
}

// entryBodyLen returns the length of the entry body that starts (tag byte)
// at off; the entry is known to be well formed.
func entryBodyLen(data []byte, off int) int {
	switch data[off] {
	case TagUtf8:
		return 2 + int(binary.BigEndian.Uint16(data[off+1:]))
	case TagClass, TagString, TagMethodType, TagModule, TagPackage:
		return 2
	case TagMethodHandle:
		return 3
	case TagLong, TagDouble:
		return 8
	default: // Integer, Float, refs, NameAndType, Dynamic, InvokeDynamic
		return 4
	}
}

// parseConstantPool reads the pool at r into p and validates every
// reference between entries.
func parseConstantPool(r *reader, p *ConstantPool, ps *parseSlabs) error {
	count := int(r.u2())
	if r.err != nil {
		return r.err
	}
	if count == 0 {
		return formatErr("class", r.pos-2, "constant_pool_count is 0")
	}
	start := r.pos
	if err := p.index(r, count, ps); err != nil {
		return err
	}
	p.data = r.buf[start:r.pos:r.pos]
	return p.validate(start)
}

// poolBodySize is the size of each constant's body after its tag byte;
// for Utf8 it is the size of the length prefix, and 0 marks unknown tags.
var poolBodySize = [256]uint8{
	TagUtf8: 2, TagInteger: 4, TagFloat: 4, TagLong: 8, TagDouble: 8,
	TagClass: 2, TagString: 2, TagFieldref: 4, TagMethodref: 4,
	TagInterfaceMethodref: 4, TagNameAndType: 4, TagMethodHandle: 3,
	TagMethodType: 2, TagDynamic: 4, TagInvokeDynamic: 4, TagModule: 2,
	TagPackage: 2,
}

// index records where each of the count-1 entries at r starts and its
// tag, leaving r after the last. It indexes the buffer directly rather
// than through r's checked reads: this loop runs for every constant of
// every class.
func (p *ConstantPool) index(r *reader, count int, ps *parseSlabs) error {
	p.offs = ps.offs.take(count)
	p.tags = ps.tags.take(count)
	buf, start, pos := r.buf, r.pos, r.pos
	// truncated reports a read of need bytes at at that passes the end,
	// with the reader's message.
	truncated := func(at, need int) error {
		r.pos = at
		r.fail(need)
		return r.err
	}
	for i := 1; i < count; i++ {
		off := pos
		if off >= len(buf) {
			return truncated(off, 1)
		}
		tag := buf[off]
		body, need := off+1, int(poolBodySize[tag])
		if need == 0 {
			return formatErr("class", off, "constant pool entry %d: unknown tag %d", i, tag)
		}
		if tag == TagUtf8 {
			if len(buf)-body < 2 {
				return truncated(body, 2)
			}
			need = int(binary.BigEndian.Uint16(buf[body:]))
			body += 2
		}
		if len(buf)-body < need {
			return truncated(body, need)
		}
		pos = body + need
		p.offs[i] = uint32(off - start)
		p.tags[i] = tag
		if tag == TagLong || tag == TagDouble {
			i++ // the next slot is unusable
			if i >= count {
				return formatErr("class", off, "constant pool entry %d: 8-byte constant in the last slot", i-1)
			}
		}
	}
	r.pos = pos
	return nil
}

// validate checks that every index stored inside a pool entry names an
// entry of the right kind. base is the pool's offset in the class file,
// for error messages.
func (p *ConstantPool) validate(base int) error {
	for i := 1; i < len(p.tags); i++ {
		tag := p.tags[i]
		if tag == 0 {
			continue
		}
		off := int(p.offs[i])
		b := p.data[off+1:]
		bad := func(what string, idx uint16) error {
			return formatErr("class", base+off, "constant pool entry %d: %s index %d is invalid (tag %d)", i, what, idx, p.Tag(idx))
		}
		u2 := func(k int) uint16 { return binary.BigEndian.Uint16(b[k:]) }
		switch tag {
		case TagClass, TagString, TagMethodType, TagModule, TagPackage:
			if p.Tag(u2(0)) != TagUtf8 {
				return bad("name", u2(0))
			}
		case TagFieldref, TagMethodref, TagInterfaceMethodref:
			if p.Tag(u2(0)) != TagClass {
				return bad("class", u2(0))
			}
			if p.Tag(u2(2)) != TagNameAndType {
				return bad("name-and-type", u2(2))
			}
		case TagNameAndType:
			if p.Tag(u2(0)) != TagUtf8 {
				return bad("name", u2(0))
			}
			if p.Tag(u2(2)) != TagUtf8 {
				return bad("descriptor", u2(2))
			}
		case TagMethodHandle:
			kind := b[0]
			ref := binary.BigEndian.Uint16(b[1:])
			t := p.Tag(ref)
			if kind < 1 || kind > 9 {
				return formatErr("class", base+off, "constant pool entry %d: method handle kind %d", i, kind)
			}
			if t != TagFieldref && t != TagMethodref && t != TagInterfaceMethodref {
				return bad("reference", ref)
			}
		case TagDynamic, TagInvokeDynamic:
			if p.Tag(u2(2)) != TagNameAndType {
				return bad("name-and-type", u2(2))
			}
		}
	}
	return nil
}

// appendTo writes constant_pool_count and the entries.
func (p *ConstantPool) appendTo(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(p.tags)))
	return append(dst, p.data...)
}

// findOrAdd returns the index of the first entry with this tag and body,
// appending one when there is none. The search is linear: a rewrite adds a
// handful of constants per class, and scanning the tag array costs less
// than building an index of the whole pool for every class.
func (p *ConstantPool) findOrAdd(tag uint8, body []byte) (uint16, error) {
	if i, ok := p.find(tag, body); ok {
		return i, nil
	}
	slots := 1
	if tag == TagLong || tag == TagDouble {
		slots = 2
	}
	if len(p.tags)+slots > maxPoolCount {
		return 0, fmt.Errorf("adding a constant (tag %d) would pass %d entries: %w", tag, maxPoolCount-1, ErrPoolFull)
	}
	i := uint16(len(p.tags))
	// The three-index slice in parseConstantPool makes the first append copy,
	// so the caller's input buffer is never written.
	p.offs = append(p.offs, uint32(len(p.data)))
	p.tags = append(p.tags, tag)
	p.data = append(p.data, tag)
	p.data = append(p.data, body...)
	if slots == 2 {
		p.offs = append(p.offs, 0)
		p.tags = append(p.tags, 0)
	}
	p.grown = true
	if p.consts != nil && (tag == TagInteger || tag == TagString) {
		p.consts[poolKey{tag, string(body)}] = i
	}
	return i, nil
}

// find returns the first entry with this tag and body.
func (p *ConstantPool) find(tag uint8, body []byte) (uint16, bool) {
	if tag == TagInteger || tag == TagString {
		if p.consts == nil {
			p.consts = map[poolKey]uint16{}
			for i, t := range p.tags {
				if t == TagInteger || t == TagString {
					off := int(p.offs[i])
					k := poolKey{t, string(p.data[off+1 : off+1+entryBodyLen(p.data, off)])}
					if _, seen := p.consts[k]; !seen {
						p.consts[k] = uint16(i)
					}
				}
			}
		}
		i, ok := p.consts[poolKey{tag, string(body)}]
		return i, ok
	}
	for i, t := range p.tags {
		if t != tag {
			continue
		}
		off := int(p.offs[i]) + 1
		if n := entryBodyLen(p.data, off-1); n == len(body) && string(p.data[off:off+n]) == string(body) {
			return uint16(i), true
		}
	}
	return 0, false
}

// AddUtf8 finds or adds a Utf8 entry.
func (p *ConstantPool) AddUtf8(s string) (uint16, error) {
	enc := encodeModifiedUTF8(s)
	if len(enc) > math.MaxUint16 {
		return 0, fmt.Errorf("string of %d encoded bytes does not fit a Utf8 constant", len(enc))
	}
	body := binary.BigEndian.AppendUint16(make([]byte, 0, 2+len(enc)), uint16(len(enc)))
	return p.findOrAdd(TagUtf8, append(body, enc...))
}

func (p *ConstantPool) addIndexed(tag uint8, idx ...uint16) (uint16, error) {
	body := make([]byte, 0, 4)
	for _, x := range idx {
		body = binary.BigEndian.AppendUint16(body, x)
	}
	return p.findOrAdd(tag, body)
}

// AddClass finds or adds a Class entry for an internal name.
func (p *ConstantPool) AddClass(name string) (uint16, error) {
	u, err := p.AddUtf8(name)
	if err != nil {
		return 0, err
	}
	return p.addIndexed(TagClass, u)
}

// AddString finds or adds a String entry.
func (p *ConstantPool) AddString(s string) (uint16, error) {
	u, err := p.AddUtf8(s)
	if err != nil {
		return 0, err
	}
	return p.addIndexed(TagString, u)
}

// AddInteger finds or adds an Integer entry.
func (p *ConstantPool) AddInteger(v int32) (uint16, error) {
	return p.findOrAdd(TagInteger, binary.BigEndian.AppendUint32(nil, uint32(v)))
}

// AddNameAndType finds or adds a NameAndType entry.
func (p *ConstantPool) AddNameAndType(name, desc string) (uint16, error) {
	n, err := p.AddUtf8(name)
	if err != nil {
		return 0, err
	}
	d, err := p.AddUtf8(desc)
	if err != nil {
		return 0, err
	}
	return p.addIndexed(TagNameAndType, n, d)
}

// AddMethodref finds or adds a Methodref (class, not interface) entry.
func (p *ConstantPool) AddMethodref(class, name, desc string) (uint16, error) {
	c, err := p.AddClass(class)
	if err != nil {
		return 0, err
	}
	nt, err := p.AddNameAndType(name, desc)
	if err != nil {
		return 0, err
	}
	return p.addIndexed(TagMethodref, c, nt)
}

// Grown reports whether entries were added since parsing.
func (p *ConstantPool) Grown() bool { return p.grown }

// IndyNameAndType returns the NameAndType index of an InvokeDynamic or
// Dynamic entry.
func (p *ConstantPool) IndyNameAndType(i uint16) (uint16, error) {
	tag := p.Tag(i)
	if tag != TagInvokeDynamic && tag != TagDynamic {
		return 0, fmt.Errorf("constant pool index %d is not a dynamic constant (tag %d)", i, tag)
	}
	b, _ := p.entry(i, tag)
	return binary.BigEndian.Uint16(b[2:]), nil
}

// Entry returns the tag of entry i and its body: the bytes after the tag,
// in class-file form (for constants without a typed accessor: Float, Long,
// Double, MethodHandle, MethodType, bootstrap indices).
func (p *ConstantPool) Entry(i uint16) (tag uint8, body []byte, err error) {
	tag = p.Tag(i)
	if tag == 0 {
		return 0, nil, fmt.Errorf("constant pool index %d is not a valid entry (count %d)", i, len(p.tags))
	}
	body, err = p.entry(i, tag)
	return tag, body, err
}

// StringValue returns the text of a String constant.
func (p *ConstantPool) StringValue(i uint16) (string, error) {
	b, err := p.entry(i, TagString)
	if err != nil {
		return "", err
	}
	return p.Utf8(binary.BigEndian.Uint16(b))
}
